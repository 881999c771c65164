"""The OpenAI Agents SDK's `SQLiteSession` database: `agent_sessions(session_id, created_at,
updated_at)` and `agent_messages(id, session_id, message_data, created_at)`, `message_data`
being one Responses item as JSON text.

One session per `session_id`, its items in `id` order (the order the SDK reads them in), read by
`responses_items` (messages, `function_call` with its `arguments` string kept verbatim, outputs,
custom tool calls; `reasoning` and any other item kept in place). A turn's id is its row's id; a
row whose `message_data` is not JSON (the SDK skips those too) is counted in the problems.

The `AdvancedSQLiteSession` keeps its order and branches in other tables that point at these rows
(`message_structure`); a database where any table does is not this schema: read as it, it would
mix the branches.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from inspector.model import Session
from inspector.sources.location import HistoryLocation
from inspector.sources.messages.responses_items import ItemReader
from inspector.sources.sqlite.database import grouped, matching, quote

if TYPE_CHECKING:  # annotations only: sqlite_utils is imported when a database is opened
    import sqlite_utils

NAME = "agents-sdk"
MESSAGES = "agent_messages"
MESSAGE_COLUMNS = {"id", "session_id", "message_data", "created_at"}
NOT_JSON = object()


def matches(db: sqlite_utils.Database, tables: dict[str, set[str]]) -> bool:
    """`agent_sessions` and `agent_messages` with the SDK's columns, and no table pointing at its rows."""
    if not (tables.get(MESSAGES, set()) >= MESSAGE_COLUMNS and "session_id" in tables.get("agent_sessions", set())):
        return False
    return not any(
        key[2] == MESSAGES
        for table in tables
        if table != MESSAGES
        for key in db.execute(f"PRAGMA foreign_key_list({quote(table)})")
    )


def conversations(db: sqlite_utils.Database, source: HistoryLocation) -> Iterator[tuple[str, int]]:
    """Each session's id and item count, counted by SQLite."""
    for session_id, count in db.execute(f"SELECT session_id, count(*) FROM {MESSAGES} GROUP BY 1 ORDER BY 1"):
        yield str(session_id), count


def sessions(
    db: sqlite_utils.Database, source: HistoryLocation, only: str | None = None, start: int = 0
) -> Iterator[Session]:
    """Each session (only the session `only` when given), from the `start`th on."""
    where, params = matching("session_id", only, start, f"SELECT session_id FROM {MESSAGES} GROUP BY 1 ORDER BY 1")
    rows = db.execute(
        f"SELECT id, session_id, message_data, created_at FROM {MESSAGES} {where} ORDER BY session_id, id", params
    )  # the order of the SDK's own index
    for session_id, group in grouped(rows, 1):
        yield _session(source, str(session_id), group)


def decoded(data: Any) -> Any:
    """The item a row's `message_data` holds, or `NOT_JSON`."""
    try:
        return json.loads(data)
    except (TypeError, ValueError, RecursionError):
        return NOT_JSON


def _session(source: HistoryLocation, session_id: str, rows: list[Any]) -> Session:
    """The session of `rows` (`id, session_id, message_data, created_at`, in `id` order). Each
    turn's `raw` is its row as `{"id", "item"}`."""
    reader = ItemReader()
    for position, (row_id, _, data, _) in enumerate(rows):
        item = decoded(data)
        if item is NOT_JSON:
            reader.skip("a row whose message_data is not JSON", "rows whose message_data is not JSON")
            continue
        reader.read(position, item, {"id": row_id, "item": item}, str(row_id))
    return Session(
        NAME,
        source.path,
        tuple(reader.turns),
        document=source,
        session_id=session_id,
        problems=tuple(reader.problems()),
    )
