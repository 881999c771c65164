"""GitHub Copilot CLI's older session store (before 0.0.342, when `session-state/<id>/events.jsonl`
took its place): `~/.copilot/history-session-state/session_<id>_<ms>.json`, one JSON object a
session, written whole (two-space indent) after each change.

Shape read: `{sessionId, startTime, chatMessages, timeline, selectedModel?}`. `chatMessages` is the
history the CLI sends the model, OpenAI Chat Completions messages (`system`, `developer`, `user`,
`assistant` with `tool_calls`, `tool` with `tool_call_id`; each message a turn, a result named
after its call). `timeline` is what the CLI showed, entries `{id, timestamp, type, ...}` of the
types `user`, `copilot`, `info`, `error`, `tool_call_requested` and `tool_call_completed`: kept
as they are, an entry of another type, or that is not a JSON object, counted in the session's
problems.

Positive marker: an object with a `sessionId` string and the `chatMessages` and `timeline` lists,
only this store's. The CLI resumes these sessions (`--resume`, `--continue`) from
`chatMessages`, so the format is written: untouched messages stay as they were, a recovered call
is added to its assistant message's `tool_calls` and its "not executed" result is a `tool`
message after it, as the CLI writes them; the timeline is left as it was.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from inspector.model import TOOL, Session, Turn
from inspector.sources.files.document import Document
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.arguments import arguments_as_json
from inspector.sources.messages.message_survey import keysets, survey_messages
from inspector.sources.messages.openai_calls import render_tool_calls
from inspector.sources.messages.openai_messages import read_openai_messages, render_edited_message
from inspector.sources.messages.record_lists import rebuild_records
from inspector.sources.unread_records import Unread, UnreadTally
from inspector.support.counted_words import counted

NAME = "copilot-cli-history"
TIMELINE_TYPES = frozenset({"user", "copilot", "info", "error", "tool_call_requested", "tool_call_completed"})
SESSION = "session"  # the file's own keys are counted under this record type
_MESSAGE = "role content name tool_calls tool_call_id refusal"
KNOWN_KEYS = keysets(
    {
        SESSION: "sessionId startTime chatMessages timeline selectedModel",
        **{f"message/{role}": _MESSAGE for role in ("system", "developer", "user", "assistant", "tool")},
        "block/text": "type text",
        "block/image_url": "type image_url",
        "tool_call": "id type function",
        "tool_call function": "name arguments",
    }
)


def claims(document: Document) -> bool:
    """One JSON object with a `sessionId` string and the `chatMessages` and `timeline` lists."""
    value = document.value
    return (
        not document.is_jsonl
        and isinstance(value, dict)
        and isinstance(value.get("sessionId"), str)
        and isinstance(value.get("chatMessages"), list)
        and isinstance(value.get("timeline"), list)
    )


def read(document: Document) -> list[Session]:
    """The one session of the file."""
    value = document.value
    turns, problems = read_openai_messages(value["chatMessages"])
    unknown: Counter[tuple[str, str]] = Counter()  # (one of them, several): how many
    for entry in value["timeline"]:
        if not isinstance(entry, dict):
            unknown["timeline entry that is not a JSON object", "timeline entries that are not JSON objects"] += 1
        elif not _known(entry.get("type")):
            other = f"of a type this reader does not know ({str(entry.get('type'))!r})"
            unknown[f"timeline entry {other}", f"timeline entries {other}"] += 1
    problems.extend(f"{counted(count, one, many)}, kept as stored" for (one, many), count in unknown.items())
    return [Session(NAME, document.path, tuple(turns), (), document, 0, value["sessionId"], tuple(problems))]


def write(document: Document, sessions: list[Session]) -> str:
    """The file's text with the session's repaired messages; everything else as it was (the CLI
    writes the file with `JSON.stringify`: no final newline)."""
    value = document.value
    messages = rebuild_records(value["chatMessages"], sessions[0].turns, render_edited_message, _render_new)
    return document.render({**value, "chatMessages": messages}).removesuffix("\n")


def survey(document: Document) -> tuple[Unread, ...]:
    """The message roles, content part types and timeline entry types (`timeline/<type>`) the
    reader does not know, and the keys it does not know on the file, its messages, their parts
    and calls (the store names no version)."""
    value = document.value
    tally = UnreadTally(KNOWN_KEYS)
    tally.keys(SESSION, value, None)
    survey_messages(tally, value["chatMessages"], None)
    for entry in value["timeline"]:
        kind = entry.get("type") if type(entry) is dict else None
        if type(entry) is dict and not _known(kind):
            tally.unknown_type(f"timeline/{kind}" if type(kind) is str else "timeline", None)
    return tally.unread()


def _render_new(turn: Turn) -> list[dict[str, Any]]:
    """The messages of a turn a repair added: a `tool` message a result, or an assistant's."""
    if turn.role == TOOL:
        return [
            {
                "role": "tool",
                "tool_call_id": result.call_id,
                "content": result.content if isinstance(result.content, str) else arguments_as_json(result.content),
            }
            for result in turn.tool_results
        ]
    message: dict[str, Any] = {"role": turn.role, "content": turn.text}
    if turn.tool_calls:
        message["tool_calls"] = render_tool_calls(turn.tool_calls)
    return [message]


def _known(kind: Any) -> bool:
    """Whether `kind` is a timeline entry type the reader knows (any value: one that is no
    string, even a list, is not)."""
    return type(kind) is str and kind in TIMELINE_TYPES


FORMAT = FileFormat(NAME, claims, read, write, survey)
