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
from typing import TYPE_CHECKING

from inspector.errors import InspectorError
from inspector.model import Session
from inspector.sources.base import Capabilities, Listed, SessionWriter, Source, WriteOptions
from inspector.sources.location import HistoryLocation
from inspector.sources.odd_records import without_odd_turns
from inspector.sources.sqlite import elia, table
from inspector.sources.sqlite.database import (
    check_header,
    copy_database,
    mapped_errors,
    reading,
    table_columns,
)
from inspector.sources.sqlite.schemas import READERS, SCHEMAS
from inspector.sources.sqlite.write import DatabaseWriter
from inspector.sources.sqlite.writers import WRITERS

if TYPE_CHECKING:  # annotations only: sqlite_utils is imported when a database is opened
    import sqlite_utils


class SqliteHistory(Source):
    """The conversations of one SQLite database, read as the schema recognised or named
    (`format_name`), or from the table `table` with the columns `mapping` names."""

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
        """Every schema writes a copy or in place; `llm` writes a repaired conversation as a fork."""
        return Capabilities(forks=self.format == "llm")

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
            with reading(self.path) as db, mapped_errors(self.path, "recognising the schema"):
                self._location = self._recognise(db)
        return self._location

    def listing(self) -> list[Listed]:
        """Every conversation's id and message count, counted by SQLite without loading messages."""
        with reading(self.path) as db, mapped_errors(self.path, "listing conversations"):
            location = self._location or self._recognise(db)
            self._location = location
            return [Listed(*entry) for entry in READERS[location.format].conversations(db, location)]

    def sessions(self, only: str | None = None, start: int = 0) -> Iterator[Session]:
        """Each conversation as a session, read one at a time (only `only` when given), from number
        `start` on: those before are skipped by SQLite."""
        with reading(self.path) as db, mapped_errors(self.path, "reading conversations"):
            location = self._location or self._recognise(db)
            self._location = location
            for session in READERS[location.format].sessions(db, location, only, start):
                yield without_odd_turns(session)

    def check_table(self) -> None:
        """Fail with one line when the named table or one of its mapped columns is missing."""
        with reading(self.path) as db, mapped_errors(self.path, "reading the table"):
            table.check(db, self.location)

    def writer(self, out: Path, in_place: bool, options: WriteOptions = WriteOptions()) -> SessionWriter:
        """A writer into `out`: the database itself (locked, then backed up) or a new copy of it."""
        if self.format not in WRITERS:
            raise InspectorError(f"{self.path}: writing back to the {self.format} schema is not supported yet")
        return DatabaseWriter(self.path, Path(out), in_place, WRITERS[self.format], options)

    def reading_while_writing(self, backup: Path) -> Source:
        """The backup, made under the write lock: exactly what the lock protects, and never the
        rows this write changes."""
        return SqliteHistory(backup, self._format_name, self._table, self._mapping)

    def _copy_to(self, target: Path) -> None:
        """A consistent copy made with SQLite's backup API (even while another program uses it);
        `fix --in-place` makes its own under the write lock (`DatabaseWriter.backup`)."""
        copy_database(self.path, target)

    def _recognise(self, db: sqlite_utils.Database) -> HistoryLocation:
        if self._table is not None or self._mapping:
            if self._table is None or not self._mapping:
                raise InspectorError("--table and --map go together: --table T --map role=COL,content=COL")
            return HistoryLocation(self.path, table.NAME, self._table, dict(self._mapping))
        tables = table_columns(db)
        if self._format_name is not None:
            module = SCHEMAS.get(self._format_name)
            if module is None:
                raise InspectorError(
                    f"{self.path}: --format {self._format_name} does not read SQLite "
                    f"(choose from {', '.join(SCHEMAS)}, or use --table/--map)"
                )
            if not module.matches(db, tables):
                raise InspectorError(
                    f"{self.path}: does not have the tables of the {self._format_name} schema ({_found(tables)})"
                )
            return _recognised(self.path, self._format_name)
        for name, module in SCHEMAS.items():
            if module.matches(db, tables):
                return _recognised(self.path, name)
        raise InspectorError(
            f"{self.path}: not a chat history schema this tool knows ({_found(tables)}); "
            f"name the messages table with --table T --map role=COL,content=COL[,id=COL,session=COL,order=COL]"
        )


def _recognised(path: Path, name: str) -> HistoryLocation:
    """The location of a database recognised as schema `name`: Elia's comes with its table and columns."""
    if name == elia.NAME:
        return HistoryLocation(path, name, elia.TABLE, dict(elia.MAPPING))
    return HistoryLocation(path, name)


def _found(tables: dict[str, set[str]]) -> str:
    names = sorted(name for name in tables if not name.startswith("sqlite_"))
    return f"tables: {', '.join(names[:12])}{', ...' if len(names) > 12 else ''}" if names else "no tables"
