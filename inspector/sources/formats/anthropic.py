"""Anthropic Messages sessions.

Shape read: `{"system", "tools": [{name, description, input_schema}], "messages": [...]}`, other
top-level keys kept. Roles are user and assistant; content is a string or a list of blocks: `text`,
`thinking`, `tool_use {id, name, input}` in assistant messages and `tool_result {tool_use_id,
content, is_error}` in user messages. A user message holding only tool results is a tool turn.
A stray `{"role": "system"}` message (some SDK wrappers and dumps put the system prompt there
instead of the top-level key) is read as a system turn and written back as it was. The messages
are read, and the blocks a repair adds made, by `anthropic_messages`.

Both this format and OpenAI's are `{"messages": [...]}` with `text` parts, and both may hold a
system message, so a file is Anthropic only when its shape shows something only Anthropic writes
(its blocks, `input_schema` tools, a top-level `system`) and nothing only OpenAI writes.
"""

from __future__ import annotations

from typing import Any

from inspector.catalogue import parse_tool_definitions
from inspector.model import ASSISTANT, TOOL, Session, Turn
from inspector.sources.files.document import Document
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.anthropic_messages import (
    ROLES,
    blocks_of,
    edited_message,
    message_turn,
    result_block,
)
from inspector.sources.messages.record_lists import rebuild_records
from inspector.support.lazy_pattern import lazy_pattern

NAME = "anthropic"

# What only one of the two formats writes: Anthropic's content blocks, OpenAI's roles, message keys
# and content parts. A system message and `text` parts belong to both, so they decide nothing.
BLOCK_SIGNALS = frozenset(
    {
        "tool_use",
        "tool_result",
        "thinking",
        "redacted_thinking",
        "server_tool_use",
        "web_search_tool_result",
        "document",
        "image",
    }
)
OPENAI_ROLES = frozenset({"developer", "tool", "function"})
OPENAI_KEYS = frozenset({"tool_calls", "function_call", "tool_call_id"})
OPENAI_PARTS = frozenset({"image_url", "input_audio", "refusal", "file"})
# A Cline CLI session file (`sessionId` and `agent` beside `messages`) holds Anthropic messages
# inside its own envelope: it is Cline's.
CLINE_SESSION_KEYS = frozenset({"sessionId", "agent"})
AMP_THREAD_ID = lazy_pattern(r"T-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")  # the amp format's


def claims(document: Document) -> bool:
    """An object with a messages list that shows an Anthropic signal and no OpenAI one."""
    value = document.value
    if document.is_jsonl or not isinstance(value, dict) or not isinstance(value.get("messages"), list):
        return False
    if value.keys() >= CLINE_SESSION_KEYS or _is_amp_thread(value):
        return False
    messages = [m for m in value["messages"] if isinstance(m, dict)]
    tools = value.get("tools")
    tools = [t for t in tools if isinstance(t, dict)] if isinstance(tools, list) else []
    if (
        "functions" in value
        or any(t.get("type") == "function" for t in tools)
        or any(
            not OPENAI_KEYS.isdisjoint(m) or (type(m.get("role")) is str and m["role"] in OPENAI_ROLES)
            for m in messages
        )
    ):
        return False
    block_types = {
        b["type"] for m in messages for b in _blocks(m) if isinstance(b, dict) and type(b.get("type")) is str
    }
    if not OPENAI_PARTS.isdisjoint(block_types):
        return False
    return (
        not BLOCK_SIGNALS.isdisjoint(block_types)
        or any("input_schema" in t for t in tools)
        or ("system" in value and bool(messages) and all(_has_role(m) for m in messages))
    )


def read(document: Document) -> list[Session]:
    """The one session of the file."""
    value = document.value
    turns: list[Turn] = []
    problems: list[str] = []
    names: dict[str, str] = {}
    for position, message in enumerate(value["messages"]):
        if not _has_role(message):
            problems.append(f"message {position}: not a message with a user, assistant or system role, skipped")
            continue
        turns.append(message_turn(position, message, names))
    return [
        Session(
            NAME,
            document.path,
            tuple(turns),
            tuple(parse_tool_definitions(value.get("tools"))),
            document,
            0,
            None,
            tuple(problems),
        )
    ]


def write(document: Document, sessions: list[Session]) -> bytes:
    """The file's bytes with the session's repaired turns; untouched messages are copied as they
    were (`Document.render_bytes`)."""
    value = document.value
    messages = rebuild_records(value["messages"], sessions[0].turns, edited_message, _render_new)
    return document.render_bytes({**value, "messages": messages})


def _blocks(message: dict[str, Any]) -> list[Any]:
    content = message.get("content")
    return content if isinstance(content, list) else []


def _render_new(turn: Turn) -> list[dict[str, Any]]:
    if turn.role == TOOL:
        return [{"role": "user", "content": [result_block(result) for result in turn.tool_results]}]
    role = "assistant" if turn.role == ASSISTANT else "user"
    if not turn.tool_calls:
        return [{"role": role, "content": turn.text}]
    return [{"role": role, "content": blocks_of(turn.text, turn.tool_calls)}]


def _has_role(message: Any) -> bool:
    return isinstance(message, dict) and isinstance(message.get("role"), str) and message["role"] in ROLES


def _is_amp_thread(value: dict[str, Any]) -> bool:
    """An Amp thread (`T-<uuid>` id, `created` time): the amp format's, not this one's."""
    thread_id = value.get("id")
    return type(thread_id) is str and AMP_THREAD_ID.fullmatch(thread_id) is not None and "created" in value


FORMAT = FileFormat(NAME, claims, read, write, copies_bytes=True)
