"""OpenCode's `opencode.db` and Kilo CLI's `kilo.db` (an OpenCode fork, the same tables): Drizzle
tables `session(id, parent_id, directory, title, version, ...)`, `message(id, session_id,
time_created, data)` and `part(id, message_id, session_id, data)`, `data` being JSON.

One conversation per `session` row (a subagent's session is one of its own, naming its
`parent_id`), its messages in `(time_created, id)` order and each message's parts in `id` order,
as OpenCode reads them, read into turns by `inspector.sources.messages.opencode_parts` (shared
with OpenCode's older JSON storage): text parts are the turn's text, a `tool` part is a call and,
once it has one, its result in a tool turn just after. A call whose arguments were not JSON is
stored by OpenCode as the tool `invalid` whose `input.error` quotes the raw text, and by Kilo as
the tool itself, failed, with `input.value` holding it: both are read as the call of the tool
named, with those raw arguments.

Any other part type, and a row whose `data` is not a JSON object, is counted in the session's
problems; `scan --unknowns` lists them, and the keys the reader does not know, under the
`version` of each session's row (`opencode_survey`). Read from SQLite only (OpenCode keeps its sessions there); written back by
`_opencode_write`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from inspector.model import AppliedFix, Session, Turn
from inspector.sources.base import WrittenFix
from inspector.sources.location import HistoryLocation
from inspector.sources.messages.opencode_parts import (
    MESSAGE_NOT_AN_OBJECT,
    OTHER_ROLE,
    ROLES,
    Problems,
    message_turns,
    problem_lines,
)
from inspector.sources.messages.opencode_survey import new_tally, survey_message
from inspector.sources.schemas._session_table import counted_sessions, session_ids
from inspector.sources.schemas.contract import HistoryReader, HistorySchema, SchemaWriter
from inspector.sources.sql.rows import grouped, json_or_none
from inspector.sources.sql.statements import Queries, Scope, Statements
from inspector.sources.unread_records import Unread

NAME = "opencode"
SESSION_COLUMNS = {"id", "parent_id", "directory", "title", "version"}
MESSAGE_COLUMNS = {"id", "session_id", "time_created", "data"}
PART_COLUMNS = {"id", "message_id", "session_id", "data"}


def recognise(db: Queries, tables: dict[str, set[str]]) -> bool:
    """`session`, `message` and `part` tables with OpenCode's columns."""
    return (
        tables.get("session", set()) >= SESSION_COLUMNS
        and tables.get("message", set()) >= MESSAGE_COLUMNS
        and tables.get("part", set()) >= PART_COLUMNS
    )


def conversations(db: Queries, location: HistoryLocation) -> Iterator[tuple[str, int]]:
    """Each session's id and message count, counted by the database."""
    return counted_sessions(db, "session", "message", "time_created, id")


def sessions(db: Queries, location: HistoryLocation, only: str | None = None, start: int = 0) -> Iterator[Session]:
    """Each session (only the session `only` when given), from the `start`th on."""
    for session_id in session_ids(db, "session", "time_created, id", only, start):
        rows = db.rows(
            "SELECT m.id, m.data, p.id, p.data FROM message m LEFT JOIN part p ON p.message_id = m.id "
            "WHERE m.session_id = ? ORDER BY m.time_created, m.id, p.id",
            [session_id],
        )
        yield _session(location, session_id, rows)


def _session(location: HistoryLocation, session_id: str, rows: Iterator[Any]) -> Session:
    """The session of `rows` (`message id, message data, part id, part data`, in order)."""
    turns: list[Turn] = []
    problems: Problems = Counter()
    for position, (message_id, group) in enumerate(grouped(rows, 0)):
        message = json_or_none(group[0][1])
        if not isinstance(message, dict):
            problems[MESSAGE_NOT_AN_OBJECT] += 1
            continue
        role = message.get("role")
        if not isinstance(role, str) or role not in ROLES:
            problems[OTHER_ROLE] += 1
            continue
        parts = [(part_id, json_or_none(data)) for _, _, part_id, data in group if part_id is not None]
        turns.extend(message_turns(position, message_id, ROLES[role], message, parts, problems))
    return Session(
        NAME,
        location.path,
        tuple(turns),
        document=location,
        session_id=session_id,
        problems=problem_lines(problems),
    )


def survey(db: Queries, location: HistoryLocation) -> tuple[Unread, ...]:
    """The message roles and part types the reader does not know, and the keys it does not know on
    the messages, parts and tool states of every session, under the `version` its row names."""
    tally = new_tally()
    rows = db.rows(
        "SELECT s.version, m.id, m.data, p.data FROM session s JOIN message m ON m.session_id = s.id "
        "LEFT JOIN part p ON p.message_id = m.id ORDER BY s.time_created, s.id, m.time_created, m.id, p.id"
    )
    for _, group in grouped(rows, 1):
        version = group[0][0] if isinstance(group[0][0], str) else None
        parts = [json_or_none(data) for _, _, _, data in group if data is not None]
        survey_message(tally, json_or_none(group[0][2]), parts, version)
    return tally.unread()


def changed_rows(db: Statements, session: Session) -> Scope:
    """The session's parts, messages and `session` row, and its events where OpenCode logs them."""
    key = session.session_id
    events = (
        [("event", "aggregate_id = ?", [key]), ("event_sequence", "aggregate_id = ?", [key])]
        if db.has_table("event_sequence") and db.has_table("event")
        else []
    )
    return [
        ("part", "session_id = ?", [key]),
        ("message", "session_id = ?", [key]),
        ("session", "id = ?", [key]),
        *events,
    ]


def write(db: Statements, session: Session, fixes: Sequence[AppliedFix], stamp: str) -> list[WrittenFix]:
    """Write a repaired session back (`_opencode_write`, loaded only when writing)."""
    from inspector.sources.schemas._opencode_write import write_session

    return write_session(db, session, fixes, stamp)


SCHEMA = HistorySchema(
    NAME,
    recognise,
    HistoryReader(conversations, sessions),
    SchemaWriter(write, changed_rows, tables=("part", "message", "session", "event", "event_sequence")),
    survey=survey,
)
