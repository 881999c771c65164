"""What a schema asks of the database it reads and writes, so that one schema module runs on
SQLite and on PostgreSQL: each backend implements both interfaces (`inspector.sources.sqlite`
and `inspector.sources.postgres`, their `queries` and `statements` modules).

- `Queries`, what a schema's reader uses: its tables, rows streamed in bounded memory, and the
  few clauses whose words differ between the two (keeping one conversation's rows, skipping
  the first rows, reading a column as text).
- `Statements`, what a schema's writer, the audit and undo use, inside the caller's transaction:
  statements (each answering a `Cursor`), inserting a row and getting its id, a table's columns,
  and the rows' images the audit keeps as before- and after-values (`row_changes`).

Both take SQL with `?` placeholders. A row's image is its columns' values as JSON; its key is a
JSON text naming the row (SQLite's rowid, PostgreSQL's primary key).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Protocol

Row = tuple[Any, ...]  # one row's column values, as the database's driver gives them
Image = dict[str, Any]
# The rows one conversation's write may change, as (table, where, params): `where` with `?`
# placeholders (what the audit images before and after the write, and what PostgreSQL locks).
Scope = list[tuple[str, str, list[Any]]]


class Queries(Protocol):
    """What a schema's reader asks of the database it reads (SQLite or PostgreSQL)."""

    offset: str  # the clause skipping the first `?` rows of a query (after its ORDER BY)

    def tables(self) -> dict[str, set[str]]:
        """Every table the database's unqualified names find, with its column names."""
        ...

    def columns(self, table: str) -> set[str]:
        """The names of the columns of `table` (none when there is no such table)."""
        ...

    def has_table(self, name: str) -> bool:
        """Whether the database has a table `name`."""
        ...

    def rows(self, sql: str, params: Sequence[Any] = ()) -> Iterator[Row]:
        """The rows of `sql`, streamed: memory for a batch of rows, whatever the table's size."""
        ...

    def value(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The value `sql` answers: the first column of the one row a count or an `EXISTS` gives."""
        ...

    def matching(
        self, column: str, conversation_id: str | None, start: int = 0, keys: str = ""
    ) -> tuple[str, list[Any]]:
        """A `WHERE` clause keeping the rows of one conversation (none: every conversation) and,
        with `start`, those from the `start`th conversation on (`keys` being the query of the
        conversation ids in order), written so that an index on `column` serves it; its params."""
        ...

    def text(self, expression: str) -> str:
        """`expression` read as text (a `json` column, or an id compared with a text)."""
        ...


class Cursor(Protocol):
    """What a statement answers on either database (an `sqlite3.Cursor`, a `psycopg.Cursor`): its
    rows, their columns (`column_names`) and how many rows it changed."""

    @property
    def description(self) -> Sequence[Sequence[Any]] | None: ...
    @property
    def rowcount(self) -> int: ...
    def fetchone(self) -> Row | None: ...
    def fetchall(self) -> list[Row]: ...
    def __iter__(self) -> Iterator[Row]: ...


class Statements(Protocol):
    """What a schema writer and the audit use of the database they write (SQLite or PostgreSQL)."""

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor: ...
    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...
    def insert(self, table: str, values: dict[str, Any]) -> Any: ...
    def columns(self, table: str) -> set[str]: ...
    def has_table(self, name: str) -> bool: ...
    def images(self, table: str, where: str, params: Sequence[Any], lock: bool = False) -> dict[str, Image]: ...
    def image(self, table: str, key: str, lock: bool = False) -> Image | None: ...
    def restore(self, table: str, key: str, image: Image | None) -> None: ...
    def tentatively(self, step: Callable[[], None]) -> bool: ...


def quote(identifier: str) -> str:
    """An SQL identifier, quoted."""
    return '"' + identifier.replace('"', '""') + '"'


def column_names(cursor: Cursor) -> list[str]:
    """The names of the columns of the rows `cursor` answers (none for a statement without rows)."""
    return [column[0] for column in cursor.description or ()]


def found_row(cursor: Cursor) -> Row:
    """The row `cursor` finds by a key a conversation was read with. None has it (a NULL key
    matches nothing): a `KeyError`, which a writer reports as a stored row it cannot take."""
    row = cursor.fetchone()
    if row is None:
        raise KeyError("no stored row has the key it was read with")
    return row
