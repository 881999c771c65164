"""Factory Droid sessions: `~/.factory/sessions/<working folder, / as ->/<session uuid>.jsonl`,
beside the session's `<uuid>.settings.json` (its model, autonomy level, token counts).

Shape read: JSON Lines. The file opens with a `session_start` record (`id` the session's uuid,
`title`, `owner`, `version` 2, `cwd`; a subagent's session adds `parent` and `callingSessionId`).
The messages are `message` records, `{"type": "message", "id", "parentId", "timestamp",
"message"}`, each `parentId` the id of the message before it; the `message` is an Anthropic
message (`role` `user` or `assistant`, `content` a list of `text`, `thinking`, `tool_use {id,
name, input}` and `tool_result {tool_use_id, is_error, content}` blocks) read as the Anthropic
format reads one, so a user message of results is a tool turn, a failed call's result marked
`is_error`. An assistant message's `modelId` is its turn's model. The first message of each run
(its id `context-<id of the prompt>`) holds the system reminders Droid sends before the prompt:
a user turn like the others.

Positive marker: the `session_start` record (with its `id` and `cwd`) within the first 50 lines;
Claude Code's events are typed `user` and `assistant`, and no other agent opens a file so.

A turn's position is its line's index (0-based), its id the record's `id`, its `raw` the record.
`agent_turn_outcome` (how a run ended), `todo_state` and `compaction_state` records are kept in
place, never turns; a record of another type is counted in the session's problems. Droid resumes
its sessions (`droid exec --session-id`), so the format is written (`_factory_droid_write`):
untouched lines stay byte for byte.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Any

from inspector.model import ASSISTANT, Session, Turn
from inspector.sources.files.document import Document
from inspector.sources.files.line_problems import NOT_AN_OBJECT, line_problems
from inspector.sources.formats._factory_droid_write import rebuilt_text
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages import anthropic_messages
from inspector.sources.messages.turn_models import model_name
from inspector.sources.unread_records import Unread, UnreadTally

NAME = "factory-droid"

START = "session_start"
MESSAGE = "message"
ROLES = frozenset({"user", "assistant"})
# The other record types Droid (0.225) writes: kept in place, never a turn, no problem.
KNOWN_TYPES = frozenset({START, "agent_turn_outcome", "todo_state", "compaction_state"})
CLAIM_LOOK = 50  # records looked at for the marker
# The keys of a `message` record read or known to be kept as they are; `scan --unknowns` lists others.
MESSAGE_KEYS = frozenset({"type", "id", "parentId", "timestamp", "message"})


def claims(document: Document) -> bool:
    """JSON Lines (or one line) whose first records hold Droid's `session_start` record: its
    type, a string `id` and a `cwd` key."""
    return any(_is_start(record) for record in _records(document)[:CLAIM_LOOK])


def read(document: Document) -> list[Session]:
    """The file's one session: its message records, in file order, as turns."""
    records = _records(document)
    names: dict[str, str] = {}  # call id -> tool name, for the results
    turns = [_turn(index, record, names) for index, record in enumerate(records) if _is_message(record)]
    problems = tuple(line_problems(records, _unread_label, "record", "record"))
    return [Session(NAME, document.path, tuple(turns), (), document, 0, _session_id(document, records), problems)]


def write(document: Document, sessions: list[Session]) -> str:
    """The file's text with the session's repaired turns; untouched lines are kept byte for byte."""
    return rebuilt_text(document, _records(document), sessions[0].turns)


def survey(document: Document) -> tuple[Unread, ...]:
    """The record types the reader does not know, and the keys of message records it does not
    know (the files do not say which release wrote them)."""
    tally = UnreadTally({MESSAGE: MESSAGE_KEYS})
    for record in _records(document):
        if type(record) is not dict:
            continue
        kind = record.get("type")
        if kind == MESSAGE:
            tally.keys(MESSAGE, record, None)
        elif kind not in KNOWN_TYPES:
            tally.unknown_type(kind, None)
    return tally.unread()


def _turn(index: int, record: dict[str, Any], names: dict[str, str]) -> Turn:
    """One turn from a message record, read as the Anthropic format reads its message."""
    message = record["message"]
    read = anthropic_messages.message_turn(index, message, names)
    model = model_name(message.get("modelId")) if read.role == ASSISTANT else None
    return Turn(index, read.role, read.text, record["id"], read.tool_calls, read.tool_results, record, model=model)


def _records(document: Document) -> list[Any]:
    """The file's records: the lines of JSON Lines, or the one value of a one-line file."""
    return document.value if document.is_jsonl else [document.value]


def _is_start(record: Any) -> bool:
    return type(record) is dict and record.get("type") == START and type(record.get("id")) is str and "cwd" in record


def _is_message(record: Any) -> bool:
    """Whether a record reads as a turn: a `message` record with a string id and an Anthropic
    message (role `user` or `assistant`, content a string or a list)."""
    if type(record) is not dict or record.get("type") != MESSAGE or type(record.get("id")) is not str:
        return False
    message = record.get("message")
    return type(message) is dict and message.get("role") in ROLES and isinstance(message.get("content"), (str, list))


def _session_id(document: Document, records: list[Any]) -> str:
    """The `session_start` record's id, else the file's name."""
    for record in records[:CLAIM_LOOK]:
        if _is_start(record):
            return str(record["id"])
    return PurePath(document.path).stem  # a URI too: a file Spark's executors read elsewhere


def _unread_label(record: Any) -> str | None:
    """What a record not read as a turn is; None for one read or kept without a word."""
    if type(record) is not dict:
        return NOT_AN_OBJECT
    kind = record.get("type")
    if kind in KNOWN_TYPES or _is_message(record):
        return None
    if kind == MESSAGE:
        return "of type 'message' without an id or a user or assistant message"
    return f"of type {kind!r}" if type(kind) is str else "without a type"


FORMAT = FileFormat(NAME, claims, read, write, survey)
