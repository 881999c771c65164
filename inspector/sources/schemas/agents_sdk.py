"""The OpenAI Agents SDK's `SQLiteSession` database: `agent_sessions(session_id, created_at,
updated_at)` and `agent_messages(id, session_id, message_data, created_at)`, `message_data`
being one Responses item as JSON text.

One session per `session_id`, its items in `id` order (the order the SDK reads them in), read by
`responses_items` (messages, `function_call` with its `arguments` string kept verbatim, outputs,
custom tool calls; `reasoning` and any other item kept in place). A turn's id is its row's id; a
row whose `message_data` is not JSON (the SDK skips those too) is counted in the problems.

The `AdvancedSQLiteSession` keeps its order and branches in other tables that point at these rows
(`message_structure`); a database where any table does is not this schema: read as it, it would
mix the branches. Read from SQLite only (its foreign keys are read with a `PRAGMA`); written back
by `_agents_sdk_write`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from inspector.model import AppliedFix, Session
from inspector.sources.base import WrittenFix
from inspector.sources.location import HistoryLocation
from inspector.sources.messages.responses_items import ItemReader
from inspector.sources.schemas.contract import HistoryReader, HistorySchema, SchemaWriter
from inspector.sources.sql.rows import Unreadable, decoded_json, grouped
from inspector.sources.sql.statements import Queries, Scope, Statements, quote

NAME = "agents-sdk"
MESSAGES = "agent_messages"
MESSAGE_COLUMNS = {"id", "session_id", "message_data", "created_at"}


def recognise(db: Queries, tables: dict[str, set[str]]) -> bool:
    """`agent_sessions` and `agent_messages` with the SDK's columns, and no table pointing at its rows."""
    if not (tables.get(MESSAGES, set()) >= MESSAGE_COLUMNS and "session_id" in tables.get("agent_sessions", set())):
        return False
    return not any(
        key[2] == MESSAGES
        for table in tables
        if table != MESSAGES
        for key in db.rows(f"PRAGMA foreign_key_list({quote(table)})")
    )


def conversations(db: Queries, location: HistoryLocation) -> Iterator[tuple[str, int]]:
    """Each session's id and item count, counted by the database."""
    for session_id, count in db.rows(f"SELECT session_id, count(*) FROM {MESSAGES} GROUP BY 1 ORDER BY 1"):
        yield str(session_id), count


def sessions(db: Queries, location: HistoryLocation, only: str | None = None, start: int = 0) -> Iterator[Session]:
    """Each session (only the session `only` when given), from the `start`th on."""
    where, params = db.matching("session_id", only, start, f"SELECT session_id FROM {MESSAGES} GROUP BY 1 ORDER BY 1")
    rows = db.rows(
        f"SELECT id, session_id, message_data, created_at FROM {MESSAGES} {where} ORDER BY session_id, id", params
    )  # the order of the SDK's own index
    for session_id, group in grouped(rows, 1):
        yield _session(location, str(session_id), group)


def _session(location: HistoryLocation, session_id: str, rows: list[Any]) -> Session:
    """The session of `rows` (`id, session_id, message_data, created_at`, in `id` order). Each
    turn's `raw` is its row as `{"id", "item"}`."""
    reader = ItemReader()
    for position, (row_id, _, data, _) in enumerate(rows):
        item = decoded_json(data)
        if isinstance(item, Unreadable):
            reader.skip(f"a row whose message_data is {item.why}", f"rows whose message_data is {item.why}")
            continue
        reader.read(position, item, {"id": row_id, "item": item}, str(row_id))
    return Session(
        NAME,
        location.path,
        tuple(reader.turns),
        document=location,
        session_id=session_id,
        problems=tuple(reader.problems()),
    )


def changed_rows(db: Statements, session: Session) -> Scope:
    """The session's items and its `agent_sessions` row."""
    key = session.session_id
    return [(MESSAGES, "session_id = ?", [key]), ("agent_sessions", "session_id = ?", [key])]


def write(db: Statements, session: Session, fixes: Sequence[AppliedFix], stamp: str) -> list[WrittenFix]:
    """Write a repaired session back (`_agents_sdk_write`, loaded only when writing)."""
    from inspector.sources.schemas._agents_sdk_write import write_session

    return write_session(db, session, fixes, stamp)


SCHEMA = HistorySchema(
    NAME,
    recognise,
    HistoryReader(conversations, sessions),
    SchemaWriter(write, changed_rows, tables=(MESSAGES, "agent_sessions")),
)
