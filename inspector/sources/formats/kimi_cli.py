"""Kimi CLI context files: `~/.kimi/sessions/<work-dir hash>/<session id>/context.jsonl`
(`$KIMI_SHARE_DIR` moves `~/.kimi`), the conversation `kimi --resume` restores.

Shape read (Kimi CLI's `soul/context.py`): one JSON record per line, each with a `role`:
- `_system_prompt` `{"content"}` (the first line), `_checkpoint` `{"id"}` (before each user
  turn) and `_usage` `{"token_count"}` (after each step): Kimi CLI's own records, kept in place,
  not turns;
- `user`, `assistant`, `system` and `tool` messages as kosong's `Message` dumps them: `content` a
  string, or a list of parts (`text`; `think` is not text), `tool_calls` of
  `{"type": "function", "id", "function": {"name", "arguments"}}` (the arguments a JSON string),
  a `tool` message's `tool_call_id`; a result that opens with `<system>ERROR:` is an error.
A record of another role is counted in the session's problems. The session's `wire.jsonl` beside
it (the UI's event log) is not this format and is not claimed.

Positive marker: a `_checkpoint`, `_usage` or `_system_prompt` record, which only Kimi CLI writes.
The format is read-only: the sample is built from Kimi CLI's storage code, so nothing here shows
Kimi CLI resuming a repaired file.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from inspector.errors import InspectorError
from inspector.model import TOOL, Session, ToolResult, Turn
from inspector.sources.files.document import Document, records_with_errors
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.message_survey import keysets, survey_messages
from inspector.sources.messages.openai_messages import openai_turn
from inspector.sources.unread_records import Unread, UnreadTally
from inspector.support.counted_words import counted
from inspector.support.safe_text import shown_name

NAME = "kimi-cli"
OWN_RECORDS = {"_system_prompt": "content", "_checkpoint": "id", "_usage": "token_count"}
MESSAGE_ROLES = {"user", "assistant", "system", "tool"}
ERROR_OPENING = "<system>ERROR:"
_MESSAGE = "role name content tool_calls tool_call_id partial"  # kosong's `Message`
KNOWN_KEYS = keysets(
    {
        **{f"message/{role}": f"role {key}" for role, key in OWN_RECORDS.items()},
        **{f"message/{role}": _MESSAGE for role in MESSAGE_ROLES},
        "block/text": "type text",
        "block/think": "type think encrypted",
        "block/image_url": "type image_url",
        "block/audio_url": "type audio_url",
        "tool_call": "type id function extras",
        "tool_call function": "name arguments",
    }
)


def claims(document: Document) -> bool:
    """JSON Lines whose first records hold one of Kimi CLI's own (`_checkpoint`, `_usage`,
    `_system_prompt`, each with its key)."""
    return any(_own_record(record) for record in _records(document)[:50])


def read(document: Document) -> list[Session]:
    """The context file as one conversation."""
    turns: list[Turn] = []
    names: dict[Any, str] = {}
    unknown = 0
    for position, record in enumerate(_records(document)):
        if type(record) is not dict:
            continue
        if _own_record(record):
            continue
        if type(record.get("role")) is not str or record["role"] not in MESSAGE_ROLES:
            unknown += 1
            continue
        turn = openai_turn(position, record, names)
        if turn is not None:
            turns.append(_with_error(turn) if turn.role == TOOL else turn)
    if not turns:
        raise InspectorError(f"{shown_name(document.path)}: a Kimi CLI context file without a message")
    problems = records_with_errors(_records(document))
    if unknown:
        problems.append(
            counted(
                unknown, "record of an unknown role not read as turns", "records of an unknown role not read as turns"
            )
        )
    return [Session(NAME, document.path, tuple(turns), (), document, 0, None, tuple(problems))]


def survey(document: Document) -> tuple[Unread, ...]:
    """The record roles and content part types the reader does not know, and the keys it does not
    know on the records, their parts and calls (the context file names no version)."""
    tally = UnreadTally(KNOWN_KEYS)
    survey_messages(tally, _records(document), None)
    return tally.unread()


def _records(document: Document) -> list[Any]:
    value = document.value
    return value if isinstance(value, list) else []


def _own_record(record: Any) -> bool:
    """Whether a record is one of Kimi CLI's own: its role and that role's key."""
    if type(record) is not dict or type(record.get("role")) is not str:
        return False
    key = OWN_RECORDS.get(record["role"])
    return key is not None and key in record


def _with_error(turn: Turn) -> Turn:
    """A tool turn whose result Kimi CLI marked as an error (`<system>ERROR: ...</system>`)."""
    if not turn.text.lstrip().startswith(ERROR_OPENING):
        return turn
    results = tuple(ToolResult(r.call_id, r.name, r.content, True) for r in turn.tool_results)
    return replace(turn, tool_results=results)


FORMAT = FileFormat(NAME, claims, read, survey=survey)
