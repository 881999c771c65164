"""LangChain's `message_store(id, session_id, message)` on PostgreSQL (`SQLChatMessageHistory`
on a PostgreSQL engine; `message` is `text`), read as in SQLite by the same row-to-session code."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import groupby
from operator import itemgetter
from typing import TYPE_CHECKING

from inspector.model import Session
from inspector.sources.location import HistoryLocation
from inspector.sources.postgres.rows import matching, streamed
from inspector.sources.sqlite.langchain_store import NAME, TABLE, matches, store_session

if TYPE_CHECKING:
    import psycopg

__all__ = ["NAME", "conversations", "matches", "sessions"]


def conversations(conn: psycopg.Connection, source: HistoryLocation) -> Iterator[tuple[str, int]]:
    """Each session's id and message count, counted by the server."""
    for session_id, number in streamed(conn, f"SELECT session_id, count(*) FROM {TABLE} GROUP BY 1 ORDER BY 1", []):
        yield str(session_id), number


def sessions(
    conn: psycopg.Connection, source: HistoryLocation, only: str | None = None, start: int = 0
) -> Iterator[Session]:
    """Each session (only the session `only` when given), from the `start`th on."""
    where, params = matching("session_id", only, start, f"SELECT session_id FROM {TABLE} GROUP BY 1 ORDER BY 1")
    rows = streamed(conn, f"SELECT id, session_id, message::text FROM {TABLE} {where} ORDER BY session_id, id", params)
    for session_id, group in groupby(rows, key=itemgetter(1)):
        yield store_session(source, str(session_id), list(group))
