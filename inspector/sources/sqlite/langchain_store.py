"""LangChain's `SQLChatMessageHistory` table (`langchain-community`): `message_store(id INTEGER
PRIMARY KEY, session_id TEXT, message TEXT)`, `message` being one message as `messages_to_dict`
writes it (`{"type", "data"}`, JSON text).

One session per `session_id`, its messages in `id` order (the order `SQLChatMessageHistory.messages`
reads them in), read by `langchain_messages` (calls from `tool_calls` and `invalid_tool_calls`,
results from `tool` messages). A turn's id is its row's id; a row whose `message` is not JSON, or
is no `{type, data}` message, is kept and counted in the session's problems. The table may have
been given another name (`table_name=`); only `message_store` is recognised.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from inspector.model import Session
from inspector.sources.formats import langchain
from inspector.sources.location import HistoryLocation
from inspector.sources.messages.langchain_messages import MessageReader
from inspector.sources.sqlite.database import grouped, matching

if TYPE_CHECKING:  # annotations only: sqlite_utils is imported when a database is opened
    import sqlite_utils

NAME = "langchain-sql"
TABLE = "message_store"
COLUMNS = {"id", "session_id", "message"}
NOT_JSON = object()


def matches(db: sqlite_utils.Database, tables: dict[str, set[str]]) -> bool:
    """A `message_store` table with the columns `SQLChatMessageHistory` makes."""
    return tables.get(TABLE, set()) >= COLUMNS


def conversations(db: sqlite_utils.Database, source: HistoryLocation) -> Iterator[tuple[str, int]]:
    """Each session's id and message count, counted by SQLite."""
    for session_id, count in db.execute(f"SELECT session_id, count(*) FROM {TABLE} GROUP BY 1 ORDER BY 1"):
        yield str(session_id), count


def sessions(
    db: sqlite_utils.Database, source: HistoryLocation, only: str | None = None, start: int = 0
) -> Iterator[Session]:
    """Each session (only the session `only` when given), from the `start`th on."""
    where, params = matching("session_id", only, start, f"SELECT session_id FROM {TABLE} GROUP BY 1 ORDER BY 1")
    rows = db.execute(f"SELECT id, session_id, message FROM {TABLE} {where} ORDER BY session_id, id", params)
    for session_id, group in grouped(rows, 1):
        yield store_session(source, str(session_id), group)


def decoded(text: Any) -> Any:
    """The message a row's `message` holds, or `NOT_JSON`."""
    try:
        return json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return NOT_JSON


def unwrap_row(row: dict[str, Any]) -> tuple[Any, Any]:
    """The message type and fields of a row (`{"id", "record"}`), as `langchain.unwrap`."""
    return langchain.unwrap(row["record"])


def store_session(source: HistoryLocation, session_id: str, rows: list[Any]) -> Session:
    """The session of `rows` (`id, session_id, message`, in `id` order). Each turn's `raw` is its
    row as `{"id", "record"}`. PostgreSQL's reader shares it."""
    reader = MessageReader()
    for position, (row_id, _, text) in enumerate(rows):
        record = decoded(text)
        if record is NOT_JSON:
            reader.skip("a row whose message is not JSON", "rows whose message is not JSON")
            continue
        kind, fields = langchain.unwrap(record)
        if kind is None:
            reader.skip(*fields)
            continue
        reader.read(position, kind, fields, {"id": row_id, "record": record}, str(row_id))
    return Session(
        NAME,
        source.path,
        tuple(reader.turns),
        document=source,
        session_id=session_id,
        problems=tuple(reader.problems()),
    )
