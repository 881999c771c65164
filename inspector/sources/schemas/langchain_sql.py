"""LangChain's `SQLChatMessageHistory` table (`langchain-community`): `message_store(id INTEGER
PRIMARY KEY, session_id TEXT, message TEXT)`, `message` being one message as `messages_to_dict`
writes it (`{"type", "data"}`, JSON text).

One session per `session_id`, its messages in `id` order (the order `SQLChatMessageHistory.messages`
reads them in), read by `langchain_messages` (calls from `tool_calls` and `invalid_tool_calls`,
results from `tool` messages). A turn's id is its row's id; a row whose `message` is not JSON, or
is no `{type, data}` message, is kept and counted in the session's problems. The table may have
been given another name (`table_name=`); only `message_store` is recognised. In SQLite or
PostgreSQL (where `message` is `text`); written back by `_langchain_sql_write`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from inspector.model import AppliedFix, Session
from inspector.sources.base import WrittenFix
from inspector.sources.location import HistoryLocation
from inspector.sources.messages import langchain_dicts
from inspector.sources.messages.langchain_messages import MessageReader
from inspector.sources.schemas.contract import HistoryReader, HistorySchema, SchemaWriter
from inspector.sources.sql.rows import Unreadable, decoded_json, grouped
from inspector.sources.sql.statements import Queries, Scope, Statements

NAME = "langchain-sql"
TABLE = "message_store"
COLUMNS = {"id", "session_id", "message"}


def recognise(db: Queries, tables: dict[str, set[str]]) -> bool:
    """A `message_store` table with the columns `SQLChatMessageHistory` makes."""
    return tables.get(TABLE, set()) >= COLUMNS


def conversations(db: Queries, location: HistoryLocation) -> Iterator[tuple[str, int]]:
    """Each session's id and message count, counted by the database."""
    for session_id, count in db.rows(f"SELECT session_id, count(*) FROM {TABLE} GROUP BY 1 ORDER BY 1"):
        yield str(session_id), count


def sessions(db: Queries, location: HistoryLocation, only: str | None = None, start: int = 0) -> Iterator[Session]:
    """Each session (only the session `only` when given), from the `start`th on."""
    where, params = db.matching("session_id", only, start, f"SELECT session_id FROM {TABLE} GROUP BY 1 ORDER BY 1")
    rows = db.rows(f"SELECT id, session_id, {db.text('message')} FROM {TABLE} {where} ORDER BY session_id, id", params)
    for session_id, group in grouped(rows, 1):
        yield _store_session(location, str(session_id), group)


def _store_session(location: HistoryLocation, session_id: str, rows: list[Any]) -> Session:
    """The session of `rows` (`id, session_id, message`, in `id` order). Each turn's `raw` is its
    row as `{"id", "record"}`."""
    reader = MessageReader()
    for position, (row_id, _, text) in enumerate(rows):
        record = decoded_json(text)
        if isinstance(record, Unreadable):
            reader.skip(f"a row whose message is {record.why}", f"rows whose message is {record.why}")
            continue
        kind, fields = langchain_dicts.unwrap(record)
        if kind is None:
            reader.skip(*fields)
            continue
        reader.read(position, kind, fields, {"id": row_id, "record": record}, str(row_id))
    return Session(
        NAME,
        location.path,
        tuple(reader.turns),
        document=location,
        session_id=session_id,
        problems=tuple(reader.problems()),
    )


def changed_rows(db: Statements, session: Session) -> Scope:
    """The session's rows."""
    return [(TABLE, "session_id = ?", [session.session_id])]


def write(db: Statements, session: Session, fixes: Sequence[AppliedFix], stamp: str) -> list[WrittenFix]:
    """Write a repaired session back (`_langchain_sql_write`, loaded only when writing)."""
    from inspector.sources.schemas._langchain_sql_write import write_session

    return write_session(db, session, fixes, stamp)


SCHEMA = HistorySchema(
    NAME, recognise, HistoryReader(conversations, sessions), SchemaWriter(write, changed_rows, tables=(TABLE,))
)
