"""Cline CLI sessions: `~/.cline/data/sessions/<id>/<id>.messages.json`.

Shape read: `{"version", "updated_at", "agent", "sessionId", "origin", "messages", "system_prompt"}`.
The messages are Anthropic's (`text`, `tool_use {id, name, input}` and `tool_result {tool_use_id,
name, content}` blocks) with Cline's own keys: `id`, `ts`, and on a reply `modelInfo {id,
provider}` and `metrics`. A user's text is wrapped in `<user_input mode="act">`, and a result's
content is a list of `{query, result, success}`, one per file read or command run.

Positive marker: the session envelope's `sessionId` and `agent` beside `messages`, and a message
only Cline writes among the first ones (a `modelInfo` on a reply, or a `<user_input` text).

Cline resumes a session from this file (the CLI's `--id`, or `session/load` of its ACP mode), so
the format is written: untouched messages stay as they were, a repaired reply keeps its keys, and
a message a repair adds is written with an `id` and `ts` as Cline writes its own.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

from inspector.model import ASSISTANT, TOOL, Session, Turn
from inspector.sources.files.document import Document
from inspector.sources.formats import _cline_results
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.anthropic_messages import ROLES, blocks_of, edited_message, message_turn
from inspector.sources.messages.message_survey import keysets, survey_messages
from inspector.sources.messages.record_lists import rebuild_records
from inspector.sources.messages.turn_models import model_name
from inspector.sources.unread_records import Unread, UnreadTally

NAME = "cline"
USER_INPUT = "<user_input"
LOOKED_AT = 50  # messages claims looks at
SESSION = "session"  # the envelope's keys are counted under this record type
RESULT_ITEM = "tool_result item"  # one `{query, result, success}` of a result's content
# The keys Cline CLI (3.0) writes on each record type, as its session store does.
KNOWN_KEYS = keysets(
    {
        SESSION: "version updated_at agent sessionId origin messages system_prompt",
        "message/user": "id ts role content",
        "message/assistant": "id ts role content modelInfo metrics",
        "block/text": "type text",
        "block/tool_use": "type id name input",
        "block/tool_result": "type tool_use_id name content is_error",
        "block/thinking": "type thinking signature",
        "block/redacted_thinking": "type data",
        "block/image": "type source",
        RESULT_ITEM: "query result success",
    }
)


def claims(document: Document) -> bool:
    """A session envelope (`sessionId`, `agent`, `messages`) holding a message only Cline writes."""
    value = document.value
    if document.is_jsonl or not isinstance(value, dict) or not isinstance(value.get("messages"), list):
        return False
    if not isinstance(value.get("sessionId"), str) or not isinstance(value.get("agent"), str):
        return False
    return any(_is_clines(message) for message in value["messages"][:LOOKED_AT])


def read(document: Document) -> list[Session]:
    """The one session of the file, each reply with the model its `modelInfo` names."""
    value = document.value
    turns: list[Turn] = []
    problems: list[str] = []
    names: dict[str, str] = {}
    for position, message in enumerate(value["messages"]):
        if not isinstance(message, dict) or not (type(message.get("role")) is str and message["role"] in ROLES):
            problems.append(f"message {position}: not a message with a user or assistant role, skipped")
            continue
        info = message.get("modelInfo")
        model = model_name(info.get("id")) if isinstance(info, dict) and message["role"] == "assistant" else None
        turns.append(_cline_results.with_results(message_turn(position, message, names, model), message))
    session_id = value["sessionId"]
    return [Session(NAME, document.path, tuple(turns), (), document, 0, session_id, tuple(problems))]


def write(document: Document, sessions: list[Session]) -> bytes:
    """The file's bytes with the session's repaired messages; every other message copied as it
    was (`Document.render_bytes`)."""
    value = document.value
    messages = rebuild_records(value["messages"], sessions[0].turns, edited_message, _render_new)
    return document.render_bytes({**value, "messages": messages})


def survey(document: Document) -> tuple[Unread, ...]:
    """The message roles and block types the reader does not know, and the keys it does not know
    on the envelope, the messages, their blocks and a result's `{query, result, success}` items,
    under the Cline version the envelope's `origin` names."""
    value = document.value
    origin = value.get("origin")
    version = origin.get("version") if type(origin) is dict else None
    version = version if type(version) is str else None
    tally = UnreadTally(KNOWN_KEYS)
    tally.keys(SESSION, value, version)
    survey_messages(tally, value["messages"], version)
    for message in value["messages"]:
        for block in _object_blocks(message):
            items = block.get("content") if block.get("type") == "tool_result" else None
            for item in items if type(items) is list else ():
                if type(item) is dict and "type" not in item:
                    tally.keys(RESULT_ITEM, item, version)
    return tally.unread()


def _object_blocks(message: Any) -> list[dict[str, Any]]:
    """The content blocks of a message that are objects (none for a string content)."""
    content = message.get("content") if type(message) is dict else None
    return [block for block in content if type(block) is dict] if type(content) is list else []


def _is_clines(message: Any) -> bool:
    if not isinstance(message, dict):
        return False
    if isinstance(message.get("modelInfo"), dict):
        return True
    content = message.get("content")
    blocks = content if isinstance(content, list) else []
    return any(
        isinstance(block, dict) and isinstance(block.get("text"), str) and block["text"].startswith(USER_INPUT)
        for block in blocks[:LOOKED_AT]
    )


def _render_new(turn: Turn) -> list[dict[str, Any]]:
    if turn.role == TOOL:
        content: Any = [_cline_results.result_block(result) for result in turn.tool_results]
        role = "user"
    else:
        role = "assistant" if turn.role == ASSISTANT else "user"
        content = blocks_of(turn.text, turn.tool_calls) if turn.tool_calls or role == "assistant" else turn.text
    return [{"id": f"msg_{uuid.uuid4().hex[:8]}", "role": role, "content": content, "ts": int(time.time() * 1000)}]


FORMAT = FileFormat(NAME, claims, read, write, survey, copies_bytes=True)
