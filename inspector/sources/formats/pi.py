"""Pi sessions (the `pi` coding agent, `@mariozechner/pi-coding-agent`):
`~/.pi/agent/sessions/--<working folder, / as ->--/<timestamp>_<uuid>.jsonl`.

Shape read: JSON Lines. The first line is the session header (`{"type": "session", "version": 3,
"id": <uuid>, "timestamp", "cwd"}`); every other line is an entry with a `type`, an 8-hex `id`
and the `parentId` of the entry before it on its branch (a file holds every branch of the session's
tree; the last line is where the session goes on). The turns are the `message` entries on the
current branch (from the file's last entry back to the root), each `message` read by
`_pi_messages`, and the entries whose text Pi gives the model as a user message: a `compaction`'s
or `branch_summary`'s `summary`, a `custom_message`'s `content`. `model_change`,
`thinking_level_change`, `custom`, `label` and `session_info` entries, and entries on other
branches, are kept in place and never turns; an entry of another type, or a message of an unknown
role, is counted in the session's problems. A turn's position is its line's index (0-based), its id
the entry's, its `raw` the entry. Positive marker: the header, the first line.

Pi resumes its sessions (`pi --continue`, `pi --session FILE`), so the format is written:
`_pi_tree` splices new entries into the branch the way Pi appends real ones.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Any

from inspector.model import USER, Session, Turn
from inspector.sources.files.document import Document
from inspector.sources.files.line_problems import NOT_AN_OBJECT, line_problems
from inspector.sources.formats import _pi_tree
from inspector.sources.formats._pi_messages import ROLES, content_text, message_turn
from inspector.sources.formats.contract import FileFormat
from inspector.sources.unread_records import Unread, UnreadTally

NAME = "pi"

HEADER = "session"
# Entries whose text reaches the model as a user message, and the key holding it.
SUMMARY_TEXT = {"compaction": "summary", "branch_summary": "summary", "custom_message": "content"}
# Entries Pi 0.73 writes that carry no message: kept in place, never a turn, no problem.
KNOWN_TYPES = frozenset({"model_change", "thinking_level_change", "custom", "label", "session_info"})
# The keys of the entries read or known to be kept as they are (0.73.1); `scan --unknowns` lists others.
ENVELOPE = ("type", "id", "parentId", "timestamp")
ENTRY_KEYS = {
    HEADER: frozenset({"type", "version", "id", "timestamp", "cwd", "parentSession"}),
    "message": frozenset({*ENVELOPE, "message"}),
    "compaction": frozenset({*ENVELOPE, "summary", "firstKeptEntryId", "tokensBefore", "details", "fromHook"}),
    "branch_summary": frozenset({*ENVELOPE, "fromId", "summary", "details", "fromHook"}),
    "custom_message": frozenset({*ENVELOPE, "customType", "content", "display", "details"}),
    "model_change": frozenset({*ENVELOPE, "provider", "modelId"}),
    "thinking_level_change": frozenset({*ENVELOPE, "thinkingLevel"}),
    "custom": frozenset({*ENVELOPE, "customType", "data"}),
    "label": frozenset({*ENVELOPE, "targetId", "label"}),
    "session_info": frozenset({*ENVELOPE, "name"}),
}


def claims(document: Document) -> bool:
    """JSON Lines whose first record is Pi's session header: `type` `"session"` with a string
    `id`, `timestamp` and `cwd`."""
    records = _records(document)
    header = records[0] if records else None
    return (
        isinstance(header, dict)
        and header.get("type") == HEADER
        and all(type(header.get(key)) is str for key in ("id", "timestamp", "cwd"))
    )


def read(document: Document) -> list[Session]:
    """The one session of the file: the turns of its current branch."""
    records = _records(document)
    turns = [_turn(index, records[index]) for index in _pi_tree.current_branch(records)]
    read_turns = tuple(turn for turn in turns if turn is not None)
    problems = tuple(line_problems(records, _unread_label, "record", "line"))
    return [Session(NAME, document.path, read_turns, (), document, 0, _session_id(document, records), problems)]


def write(document: Document, sessions: list[Session]) -> str:
    """The file's text with the session's repaired turns; untouched lines are kept byte for byte."""
    records = _records(document)
    return _pi_tree.render(document, records, sessions)


def survey(document: Document) -> tuple[Unread, ...]:
    """The entry types the reader does not know, and the keys of entries it does not know, under
    the session format `version` the header states (Pi's entries name no release)."""
    records = _records(document)
    header = records[0] if records and isinstance(records[0], dict) else {}
    stated = header.get("version")
    version = f"session v{stated}" if type(stated) is int else None
    tally = UnreadTally(ENTRY_KEYS)
    for record in records:
        if type(record) is not dict:
            continue
        kind = record.get("type")
        if kind in ENTRY_KEYS:
            tally.keys(kind, record, version)
        else:
            tally.unknown_type(kind, version)
    return tally.unread()


def _turn(position: int, record: Any) -> Turn | None:
    """A branch entry as a turn, or None for one that is not a message."""
    if not isinstance(record, dict):
        return None
    entry_id = record.get("id") if type(record.get("id")) is str else None
    kind = record.get("type")
    if kind == "message":
        message = record.get("message")
        if isinstance(message, dict) and message.get("role") in ROLES:
            return message_turn(position, entry_id, message, record)
        return None
    key = SUMMARY_TEXT.get(kind) if type(kind) is str else None
    if key is None:
        return None
    return Turn(position, USER, content_text(record.get(key)), entry_id, (), (), record)


def _records(document: Document) -> list[Any]:
    """The file's records: the lines of JSON Lines, or the one value of a one-line file."""
    return document.value if document.is_jsonl else [document.value]


def _session_id(document: Document, records: list[Any]) -> str:
    """The header's `id` (the file's name ends with it)."""
    header = records[0] if records else None
    header_id = header.get("id") if isinstance(header, dict) else None
    return header_id if type(header_id) is str else PurePath(document.path).stem


def _unread_label(record: Any) -> str | None:
    """What an entry not read is, when Pi would not write it so; None for one it would."""
    if not isinstance(record, dict):
        return NOT_AN_OBJECT
    kind = record.get("type")
    if kind == "message":
        message = record.get("message")
        role = message.get("role") if isinstance(message, dict) else None
        if role in ROLES:
            return None
        return f"of type 'message' with the role {role!r}" if type(role) is str else "of type 'message' without a role"
    if kind == HEADER or kind in SUMMARY_TEXT or kind in KNOWN_TYPES:
        return None
    return f"of type {kind!r}" if type(kind) is str else "without a type"


FORMAT = FileFormat(NAME, claims, read, write, survey)
