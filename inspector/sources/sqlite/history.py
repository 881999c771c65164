"""A chat history kept in SQLite as a `Source`: the schema recognised from the tables (or a table
named with `--table T --map ...`), conversations listed by SQLite without reading a message, and
read one at a time, so a history of a million messages is read with memory for one conversation.

Reading never changes the database: it is opened read-only (`database.connect`). Writing repaired
conversations goes through `inspector.sources.sqlite.write`: into a copy made with SQLite's backup
API, or into the database itself after a backup made under its write lock, in one transaction
with the audit table `inspector_fixes`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from inspector.errors import InspectorError
from inspector.model import Location, Session
from inspector.sources.base import Capabilities, FileSource, Listed, SessionWriter, Source, WriteOptions, file_output
from inspector.sources.location import HistoryLocation
from inspector.sources.odd_records import without_odd_turns
from inspector.sources.schemas import SCHEMAS, schema_named, table
from inspector.sources.schemas.recognition import Backend, recognise
from inspector.sources.sql.statements import Queries
from inspector.sources.sqlite.database import check_header, copy_database, mapped_errors, reading
from inspector.sources.sqlite.queries import SqliteQueries
from inspector.sources.sqlite.write import DatabaseWriter
from inspector.support.safe_text import shown_name

# SQLite reads every schema; a named table, checked as it is read, by its rowid when no `id` is mapped.
SQLITE = Backend(SCHEMAS, "does not read SQLite", "this tool knows")


class SqliteHistory(FileSource):
    """The conversations of one SQLite database, read as the schema recognised or named
    (`format_name`), or from the table `table` with the columns `mapping` names."""

    path: Path
    streams = True
    unit = "conversation"

    def __init__(
        self,
        path: Path,
        format_name: str | None = None,
        table_name: str | None = None,
        mapping: dict[str, str] | None = None,
    ) -> None:
        self.path = Path(path)
        self._format_name = format_name
        self._table = table_name
        self._mapping = mapping
        self._location: HistoryLocation | None = None
        check_header(self.path)

    @property
    def capabilities(self) -> Capabilities:
        """Every schema writes a copy or in place; some (`llm`) write a repaired conversation as a fork."""
        writer = schema_named(self.format).writer
        return Capabilities(forks=writer is not None and writer.forks)

    @property
    def table_key(self) -> str | None:
        """The table and columns named with `--table`/`--map`, as one text; None when the schema
        is recognised (a review keeps the decisions on each table apart by it)."""
        return table.named_table_key(self._table, self._mapping)

    @property
    def format(self) -> str:
        """The schema's name (`rubyllm`, `llm`, ..., `table`)."""
        return self.location.format

    @property
    def location(self) -> HistoryLocation:
        """Where the sessions come from: the database, its schema and, for a named table, its columns
        (each session read keeps it as its `document`, for the writers)."""
        if self._location is None:
            with reading(self.path) as conn, mapped_errors(self.path, "recognising the schema"):
                self._location = self._recognise(SqliteQueries(conn))
        return self._location

    def listing(self) -> list[Listed]:
        """Every conversation's id and message count, counted by SQLite without loading messages."""
        with reading(self.path) as conn, mapped_errors(self.path, "listing conversations"):
            db = SqliteQueries(conn)
            location = self._location or self._recognise(db)
            self._location = location
            return [Listed(*entry) for entry in schema_named(location.format).read.conversations(db, location)]

    def sessions(self, only: str | None = None, start: int = 0) -> Iterator[Session]:
        """Each conversation as a session, read one at a time (only `only` when given), from number
        `start` on: those before are skipped by SQLite."""
        with reading(self.path) as conn, mapped_errors(self.path, "reading conversations"):
            db = SqliteQueries(conn)
            location = self._location or self._recognise(db)
            self._location = location
            for session in schema_named(location.format).read.sessions(db, location, only, start):
                yield without_odd_turns(session)

    def check_table(self) -> None:
        """Fail with one line when the named table or one of its mapped columns is missing."""
        with reading(self.path) as conn, mapped_errors(self.path, "reading the table"):
            table.check(SqliteQueries(conn), self.location)

    def writer(self, out: Location, in_place: bool, options: WriteOptions = WriteOptions()) -> SessionWriter:
        """A writer into `out`: the database itself (locked, then backed up) or a new copy of it."""
        writer = schema_named(self.format).writer
        if writer is None:
            raise InspectorError(
                f"{shown_name(self.path)}: the {self.format} schema cannot be written back (write a repaired copy "
                "with -o OUT --to openai); nothing was written"
            )
        return DatabaseWriter(self.path, file_output(out), in_place, writer, options)

    def reading_while_writing(self, backup: Path) -> Source:
        """The backup, made under the write lock: exactly what the lock protects, and never the
        rows this write changes."""
        return SqliteHistory(backup, self._format_name, self._table, self._mapping)

    def _copy_to(self, target: Path) -> None:
        """A consistent copy made with SQLite's backup API (even while another program uses it);
        `fix --in-place` makes its own under the write lock (`DatabaseWriter.backup`)."""
        copy_database(self.path, target)

    def _recognise(self, db: Queries) -> HistoryLocation:
        return recognise(db, self.path, SQLITE, self._format_name, self._table, self._mapping)
