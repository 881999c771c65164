"""A table named with `--table T --map role=COL,content=COL[,id=COL,session=COL,order=COL]` on
PostgreSQL, read as `inspector.sources.sqlite.table` reads one in SQLite (the same row-to-session
code). Without an `id` column the rows are told apart by their primary key, which the table must
then have (PostgreSQL has no rowid)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import groupby
from operator import itemgetter
from typing import TYPE_CHECKING

from inspector.errors import InspectorError
from inspector.model import Session
from inspector.sources.location import HistoryLocation
from inspector.sources.postgres.connection import table_columns
from inspector.sources.postgres.rows import matching, streamed
from inspector.sources.sqlite.database import quote
from inspector.sources.sqlite.table import NAME, WHOLE_TABLE, table_session

if TYPE_CHECKING:
    import psycopg

__all__ = ["NAME", "check", "conversations", "primary_key", "sessions"]


def check(conn: psycopg.Connection, source: HistoryLocation) -> None:
    """Fail with one line when the table or a mapped column does not exist."""
    tables = table_columns(conn)
    if source.table not in tables:
        raise InspectorError(
            f"{source.path}: no table {source.table!r} (tables: {', '.join(sorted(tables)) or 'none'})"
        )
    missing = sorted(column for column in source.mapping.values() if column not in tables[source.table])
    if missing:
        raise InspectorError(
            f"{source.path}: table {source.table!r} has no column {', '.join(missing)} "
            f"(columns: {', '.join(sorted(tables[source.table]))})"
        )


def primary_key(conn: psycopg.Connection, table: str) -> list[str]:
    """The columns of the primary key of `table` (none when it has none)."""
    return [
        name
        for (name,) in conn.execute(
            "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey) "
            "WHERE i.indrelid = to_regclass(%s) AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)",
            [quote(table)],
        )
    ]


def row_id(conn: psycopg.Connection, source: HistoryLocation) -> str:
    """The column telling the table's rows apart: `id` as mapped, else a one-column primary key."""
    if "id" in source.mapping:
        return source.mapping["id"]
    key = primary_key(conn, source.table)
    if len(key) != 1:
        raise InspectorError(
            f"{source.path}: table {source.table!r} has no one-column primary key; "
            "name the column that identifies a row with --map id=COL"
        )
    return key[0]


def conversations(conn: psycopg.Connection, source: HistoryLocation) -> Iterator[tuple[str, int]]:
    """Each conversation's id and message count, without reading any message."""
    check(conn, source)
    table, session = quote(source.table), source.mapping.get("session")
    if session is None:
        yield WHOLE_TABLE, conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        return
    for key, number in streamed(conn, f"SELECT {quote(session)}, count(*) FROM {table} GROUP BY 1 ORDER BY 1", []):
        yield str(key), number


def sessions(
    conn: psycopg.Connection, source: HistoryLocation, only: str | None = None, start: int = 0
) -> Iterator[Session]:
    """The table's conversations one at a time (only the one with id `only` when given), from the
    `start`th on."""
    check(conn, source)
    mapping = source.mapping
    if "session" not in mapping and (start or only not in (None, WHOLE_TABLE)):
        return
    session = quote(mapping["session"]) if "session" in mapping else "NULL"
    identity = quote(row_id(conn, source))
    order = ", ".join([session] + ([quote(mapping["order"])] if "order" in mapping else []) + [identity])
    keys = f"SELECT {session} FROM {quote(source.table)} GROUP BY 1 ORDER BY 1"
    where, params = matching(session, only, start, keys) if "session" in mapping else ("", [])
    sql = (
        f"SELECT {identity}, {quote(mapping['role'])}, {quote(mapping['content'])}, {session} "
        f"FROM {quote(source.table)} {where} ORDER BY {order}"
    )
    for key, rows in groupby(streamed(conn, sql, params), key=itemgetter(3)):
        yield table_session(source, WHOLE_TABLE if "session" not in mapping else str(key), list(rows))
