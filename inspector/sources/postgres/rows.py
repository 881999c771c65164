"""Reading rows from PostgreSQL in bounded memory: a server-side (named) cursor fetching
`BATCH` rows at a time, and the `WHERE` clause keeping one conversation or skipping the first ones."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import count
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import psycopg

BATCH = 2000  # rows per round trip: memory for a few thousand rows, whatever the table's size
_names = count(1)


def streamed(conn: psycopg.Connection, sql: str, params: list[Any]) -> Iterator[tuple]:
    """The rows of `sql`, fetched `BATCH` at a time through a server-side cursor of the
    connection's transaction (closed when the iteration ends or is abandoned)."""
    with conn.cursor(name=f"inspector_rows_{next(_names)}") as cursor:
        cursor.itersize = BATCH
        cursor.execute(sql, params)
        yield from cursor


def matching(column: str, conversation_id: str | None, start: int = 0, keys: str = "") -> tuple[str, list[Any]]:
    """A `WHERE` clause keeping the rows of one conversation (its id compared as text, whatever the
    column's type) and, with `start`, from the `start`th conversation on (`keys` being the query of
    the conversation ids in order); an empty one for every row."""
    conditions: list[str] = []
    params: list[Any] = []
    if conversation_id is not None:
        conditions.append(f"{column}::text = %s")
        params.append(conversation_id)
    if start:
        conditions.append(f"{column} >= ({keys} OFFSET %s LIMIT 1)")
        params.append(start)
    return (f"WHERE {' AND '.join(conditions)}" if conditions else ""), params
