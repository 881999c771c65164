"""The `Queries` a schema's reader uses on PostgreSQL (the interface:
`inspector.sources.sql.statements`; SQLite's: `inspector.sources.sqlite.queries`): rows read in
bounded memory through a server-side (named) cursor fetching `BATCH` rows at a time, the tables
of the schemas in the search path (where unqualified names are looked up), and PostgreSQL's words
for the clauses that differ: an id compared as text, whatever the column's type."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import count
from typing import TYPE_CHECKING, Any

from inspector.sources.postgres.connection import only_value
from inspector.sources.postgres.statements import placeholders
from inspector.sources.sql.statements import Row, quote

if TYPE_CHECKING:
    import psycopg

BATCH = 2000  # rows per round trip: memory for a few thousand rows, whatever the table's size
_names = count(1)


class PostgresQueries:
    """The queries of one read-only connection, all in its transaction's one snapshot."""

    offset = "OFFSET ?"

    def __init__(self, conn: psycopg.Connection) -> None:
        self.conn = conn

    def tables(self) -> dict[str, set[str]]:
        """Every table (and view) of the schemas in the search path with its column names."""
        tables: dict[str, set[str]] = {}
        for table, column in self.conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = ANY (current_schemas(false))"
        ):
            tables.setdefault(table, set()).add(column)
        return tables

    def columns(self, table: str) -> set[str]:
        """The names of the columns of `table`, in the schemas of the search path."""
        return {
            name
            for (name,) in self.conn.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_name = %s "
                "AND table_schema = ANY (current_schemas(false))",
                [table],
            )
        }

    def has_table(self, name: str) -> bool:
        """Whether the search path finds a table `name`."""
        found: bool = only_value(self.conn.execute("SELECT to_regclass(%s) IS NOT NULL", [quote(name)]))
        return found

    def rows(self, sql: str, params: Sequence[Any] = ()) -> Iterator[Row]:
        """The rows of `sql` (`?` placeholders), fetched `BATCH` at a time through a server-side
        cursor of the connection's transaction (closed when the iteration ends or is abandoned)."""
        with self.conn.cursor(name=f"inspector_rows_{next(_names)}") as cursor:
            cursor.itersize = BATCH
            cursor.execute(placeholders(sql), list(params))
            yield from cursor

    def value(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The value `sql` (`?` placeholders) answers (a count, an `EXISTS`)."""
        return only_value(self.conn.execute(placeholders(sql), list(params)))

    def matching(
        self, column: str, conversation_id: str | None, start: int = 0, keys: str = ""
    ) -> tuple[str, list[Any]]:
        """A `WHERE` clause keeping the rows of one conversation (its id compared as text,
        whatever the column's type) and, with `start`, from the `start`th conversation on (`keys`
        being the query of the conversation ids in order); an empty one for every row."""
        conditions: list[str] = []
        params: list[Any] = []
        if conversation_id is not None:
            conditions.append(f"{column}::text = ?")
            params.append(conversation_id)
        if start:
            conditions.append(f"{column} >= ({keys} OFFSET ? LIMIT 1)")
            params.append(start)
        return (f"WHERE {' AND '.join(conditions)}" if conditions else ""), params

    def text(self, expression: str) -> str:
        """`expression` cast to text (a `json` column read as its text, an id compared as text)."""
        return f"{expression}::text"
