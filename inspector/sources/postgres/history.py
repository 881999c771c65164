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
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from inspector.errors import InspectorError
from inspector.model import Location, ServerUrl, Session
from inspector.sources.base import Capabilities, Listed, SessionWriter, Source, WriteOptions
from inspector.sources.location import HistoryLocation
from inspector.sources.odd_records import without_odd_turns
from inspector.sources.postgres.connection import mapped_errors, reading
from inspector.sources.postgres.queries import PostgresQueries
from inspector.sources.postgres.statements import primary_key
from inspector.sources.postgres.write import PostgresWriter
from inspector.sources.schemas import TABLE, langchain_sql, open_webui, rubyllm, schema_named, table
from inspector.sources.schemas.recognition import Backend, recognise
from inspector.support.safe_text import shown_name

if TYPE_CHECKING:
    import psycopg


def _named_table(db: PostgresQueries, location: HistoryLocation) -> HistoryLocation:
    """A named table, checked at once, its rows told apart by the `id` column mapped, else by its
    one-column primary key (PostgreSQL has no rowid)."""
    name = table.check(db, location)
    if "id" in location.mapping:
        return location
    key = primary_key(db.conn, name)
    if len(key) != 1:
        raise InspectorError(
            f"{shown_name(location.path)}: table {name!r} has no one-column primary key; "
            "name the column that identifies a row with --map id=COL"
        )
    return replace(location, mapping={**location.mapping, "id": key[0]})


# The schemas whose SQL PostgreSQL runs (the others use SQLite's own: `PRAGMA`, `LIMIT -1`).
POSTGRESQL = Backend(
    {schema.name: schema for schema in (rubyllm.SCHEMA, open_webui.SCHEMA, langchain_sql.SCHEMA)},
    "is not read on PostgreSQL",
    "this tool reads on PostgreSQL",
)


class PostgresHistory(Source):
    """The conversations of one PostgreSQL database, read as the schema recognised or named
    (`format_name`), or from the table `table_name` with the columns `mapping` names. With
    `snapshot`, an open read-only connection, everything is read through its transaction."""

    path: ServerUrl
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
            with self._reading("recognising the schema") as db:
                return self._located(db)
        return self._location

    def listing(self) -> list[Listed]:
        """Every conversation's id and message count, counted by the server."""
        with self._reading("listing conversations") as db:
            location = self._located(db)
            return [Listed(*entry) for entry in schema_named(location.format).read.conversations(db, location)]

    def sessions(self, only: str | None = None, start: int = 0) -> Iterator[Session]:
        """Each conversation as a session, read one at a time (only `only` when given), from
        number `start` on."""
        with self._reading("reading conversations") as db:
            location = self._located(db)
            for session in schema_named(location.format).read.sessions(db, location, only, start):
                yield without_odd_turns(session)

    def check_table(self) -> None:
        """Fail with one line when the named table or one of its mapped columns is missing."""
        with self._reading("reading the table") as db:
            table.check(db, self._located(db))

    def writer(self, out: Location, in_place: bool, options: WriteOptions = WriteOptions()) -> SessionWriter:
        """A writer into the database itself, in place (see `inspector.sources.postgres.write`)."""
        location = self.location
        writer = schema_named(location.format).writer
        if writer is None:
            raise InspectorError(
                f"{shown_name(self.path)}: the {location.format} schema cannot be written back (write a repaired copy "
                "with -o OUT --to openai); nothing was written"
            )
        return PostgresWriter(self.path, self.through, writer, writer.tables or (location.messages_table(),), options)

    def through(self, snapshot: psycopg.Connection) -> PostgresHistory:
        """The same history read through `snapshot`, an open read-only connection."""
        history = PostgresHistory(self.path, self._format_name, self._table, self._mapping, snapshot)
        history._location = self._location
        return history

    def cannot_write(self, in_place: bool) -> str:
        """Why a fix cannot be written as asked: a server's database is only written in place."""
        return (
            f"{shown_name(self.path)}: a database on a server cannot be copied like a file: fix it with --in-place (one "
            "transaction; inspector_fixes keeps every change with its before-value, and `inspector undo` "
            "reverts it), or export it with -o OUT --to openai; nothing was written"
        )

    def written_paths(self, out: Location) -> list[Path]:
        """No file: the database is written by a transaction on the server."""
        return []

    @contextmanager
    def _reading(self, doing: str) -> Iterator[PostgresQueries]:
        """The queries of a read-only connection (the snapshot's when given, else one closed on
        leaving); the server's errors inside are one line each."""
        with mapped_errors(self.path, doing):
            if self._snapshot is not None:
                yield PostgresQueries(self._snapshot)
                return
            with reading(self.path) as conn:
                yield PostgresQueries(conn)

    def _located(self, db: PostgresQueries) -> HistoryLocation:
        if self._location is None:
            location = recognise(db, self.path, POSTGRESQL, self._format_name, self._table, self._mapping)
            self._location = _named_table(db, location) if location.format == TABLE.name else location
        return self._location
