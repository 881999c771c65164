"""A chat history kept in a PostgreSQL database as a `Source`: the schema recognised from the
tables of the search path (or a table named with `--table T --map ...`), conversations listed by
the server, and read one at a time through a server-side cursor in a read-only, repeatable-read
transaction, so a history of a million messages streams in bounded memory.

A server's database cannot be copied like a file: `fix` writes it in place only, in one
transaction that locks the rows it rewrites and records each change with its before-value in
`inspector_fixes` (the backup: `inspector undo` reverts from it), see `inspector.sources.postgres.write`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from inspector.errors import InspectorError
from inspector.model import Session
from inspector.sources.base import Capabilities, Listed, SessionWriter, Source, WriteOptions
from inspector.sources.location import HistoryLocation, ServerUrl
from inspector.sources.odd_records import without_odd_turns
from inspector.sources.postgres.connection import mapped_errors, reading, table_columns
from inspector.sources.postgres.schemas import READERS, SCHEMAS
from inspector.sources.postgres.write import PostgresWriter
from inspector.sources.sqlite import table
from inspector.sources.sqlite.writers import WRITERS

# The tables a fix writes, per schema (a named table: that table), whose triggers are refused.
WRITTEN_TABLES = {
    "rubyllm": ("messages", "tool_calls"),
    "langchain-sql": ("message_store",),
    "open-webui": ("chat", "chat_message"),
}

if TYPE_CHECKING:
    import psycopg


class PostgresHistory(Source):
    """The conversations of one PostgreSQL database, read as the schema recognised or named
    (`format_name`), or from the table `table_name` with the columns `mapping` names. With
    `snapshot`, an open read-only connection, everything is read through its transaction."""

    streams = True
    unit = "conversation"
    capabilities = Capabilities(write_copy=False, write_in_place=True)

    def __init__(
        self,
        url: ServerUrl,
        format_name: str | None = None,
        table_name: str | None = None,
        mapping: dict[str, str] | None = None,
        snapshot: psycopg.Connection | None = None,
    ) -> None:
        self.path = url
        self._format_name = format_name
        self._table = table_name
        self._mapping = mapping
        self._snapshot = snapshot
        self._location: HistoryLocation | None = None

    @property
    def table_key(self) -> str | None:
        """The table and columns named with `--table`/`--map`, as one text; None when the schema
        is recognised (a review keeps the decisions on each table apart by it)."""
        return table.named_table_key(self._table, self._mapping)

    @property
    def format(self) -> str:
        """The schema's name (`rubyllm`, `open-webui`, `langchain-sql`, `table`)."""
        return self.location.format

    @property
    def location(self) -> HistoryLocation:
        """Where the sessions come from: the database, its schema and, for a named table, its columns."""
        if self._location is None:
            with self._reading("recognising the schema") as conn:
                self._location = self._recognise(conn)
        return self._location

    def listing(self) -> list[Listed]:
        """Every conversation's id and message count, counted by the server."""
        with self._reading("listing conversations") as conn:
            location = self._located(conn)
            return [Listed(*entry) for entry in READERS[location.format].conversations(conn, location)]

    def sessions(self, only: str | None = None, start: int = 0) -> Iterator[Session]:
        """Each conversation as a session, read one at a time (only `only` when given), from
        number `start` on."""
        with self._reading("reading conversations") as conn:
            location = self._located(conn)
            for session in READERS[location.format].sessions(conn, location, only, start):
                yield without_odd_turns(session)

    def check_table(self) -> None:
        """Fail with one line when the named table or one of its mapped columns is missing."""
        with self._reading("reading the table") as conn:
            READERS[table.NAME].check(conn, self._located(conn))

    def writer(self, out: Path, in_place: bool, options: WriteOptions = WriteOptions()) -> SessionWriter:
        """A writer into the database itself, in place (see `inspector.sources.postgres.write`)."""
        location = self.location
        return PostgresWriter(
            self.path,
            self.through,
            WRITERS[location.format],
            WRITTEN_TABLES.get(location.format, (location.table,)),
            options,
        )

    def through(self, snapshot: psycopg.Connection) -> PostgresHistory:
        """The same history read through `snapshot`, an open read-only connection."""
        history = PostgresHistory(self.path, self._format_name, self._table, self._mapping, snapshot)
        history._location = self._location
        return history

    def cannot_write(self, in_place: bool) -> str:
        """Why a fix cannot be written as asked: a server's database is only written in place."""
        return (
            f"{self.path}: a database on a server cannot be copied like a file: fix it with --in-place (one "
            "transaction; inspector_fixes keeps every change with its before-value, and `inspector undo` "
            "reverts it), or export it with -o OUT --to openai; nothing was written"
        )

    def written_paths(self, out: Path) -> list[Path]:
        """No file: the database is written by a transaction on the server."""
        return []

    @contextmanager
    def _reading(self, doing: str) -> Iterator[psycopg.Connection]:
        """A read-only connection (the snapshot's when given, else one closed on leaving); the
        server's errors inside are one line each."""
        with mapped_errors(self.path, doing):
            if self._snapshot is not None:
                yield self._snapshot
                return
            with reading(self.path) as conn:
                yield conn

    def _located(self, conn: psycopg.Connection) -> HistoryLocation:
        if self._location is None:
            self._location = self._recognise(conn)
        return self._location

    def _recognise(self, conn: psycopg.Connection) -> HistoryLocation:
        if self._table is not None or self._mapping:
            if self._table is None or not self._mapping:
                raise InspectorError("--table and --map go together: --table T --map role=COL,content=COL")
            mapping = dict(self._mapping)
            location = HistoryLocation(self.path, table.NAME, self._table, mapping)
            READERS[table.NAME].check(conn, location)
            mapping.setdefault("id", READERS[table.NAME].row_id(conn, location))  # no rowid here: the key
            return location
        tables = table_columns(conn)
        if self._format_name is not None:
            module = SCHEMAS.get(self._format_name)
            if module is None:
                raise InspectorError(
                    f"{self.path}: --format {self._format_name} is not read on PostgreSQL "
                    f"(choose from {', '.join(SCHEMAS)}, or use --table/--map)"
                )
            if not module.matches(conn, tables):
                raise InspectorError(
                    f"{self.path}: does not have the tables of the {self._format_name} schema ({_found(tables)})"
                )
            return HistoryLocation(self.path, self._format_name)
        for name, module in SCHEMAS.items():
            if module.matches(conn, tables):
                return HistoryLocation(self.path, name)
        raise InspectorError(
            f"{self.path}: not a chat history schema this tool reads on PostgreSQL ({_found(tables)}); "
            "name the messages table with --table T --map role=COL,content=COL[,id=COL,session=COL,order=COL]"
        )


def _found(tables: dict[str, set[str]]) -> str:
    names = sorted(tables)
    return f"tables: {', '.join(names[:12])}{', ...' if len(names) > 12 else ''}" if names else "no tables"
