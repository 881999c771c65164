"""The `Queries` a schema's reader uses on SQLite (the interface: `inspector.sources.sql.statements`;
PostgreSQL's: `inspector.sources.postgres.queries`): a cursor's rows, which SQLite steps through
one at a time, and SQLite's words for the clauses that differ."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from typing import Any

from inspector.sources.sql.statements import Row, quote
from inspector.sources.sqlite.database import has_table


class SqliteQueries:
    """The queries of one read-only SQLite connection."""

    offset = "LIMIT -1 OFFSET ?"

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def tables(self) -> dict[str, set[str]]:
        """Every table of the database (views left out) with its column names."""
        names = [name for (name,) in self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {name: self.columns(name) for name in names}

    def columns(self, table: str) -> set[str]:
        """The names of the columns of `table`."""
        return {row[1] for row in self.conn.execute(f"PRAGMA table_info({quote(table)})")}

    def has_table(self, name: str) -> bool:
        """Whether the database has a table `name`."""
        return has_table(self.conn, name)

    def rows(self, sql: str, params: Sequence[Any] = ()) -> Iterator[Row]:
        """The rows of `sql` (`?` placeholders), stepped through as they are iterated."""
        return self.conn.execute(sql, params)

    def value(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The value `sql` answers (a count, an `EXISTS`)."""
        return self.conn.execute(sql, params).fetchone()[0]

    def matching(
        self, column: str, conversation_id: str | None, start: int = 0, keys: str = ""
    ) -> tuple[str, list[Any]]:
        """A `WHERE` clause keeping the rows of one conversation (none for every conversation),
        written so that an index on `column` serves it: the id as text, and as an integer when it
        is one. `start` skips the first conversations, `keys` being the query of the conversation
        ids in order."""
        conditions: list[str] = []
        params: list[Any] = []
        if conversation_id is not None and conversation_id.lstrip("-").isdigit():
            conditions.append(f"{column} IN (?, ?)")
            params += [conversation_id, int(conversation_id)]
        elif conversation_id is not None:
            conditions.append(f"{column} = ?")
            params.append(conversation_id)
        if start:
            conditions.append(f"{column} >= ({keys} LIMIT 1 OFFSET ?)")
            params.append(start)
        return (f"WHERE {' AND '.join(conditions)}" if conditions else ""), params

    def text(self, expression: str) -> str:
        """`expression` as it is: SQLite compares and returns a column's text as stored."""
        return expression
