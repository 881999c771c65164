"""Recognising which schema a database holds, the same way on SQLite and PostgreSQL: a table named
with `--table T --map ...` is read as it is named; a schema named with `--format` must have its
tables; else the first schema of the backend's whose tables the database has (in the order of
`SCHEMAS`). Anything else is one line naming the tables found and how to name a table instead.

Each backend declares what it reads (`Backend`): its schemas and the words its refusals use. The
location of a named table is the backend's to complete (PostgreSQL, which has no rowid, checks
the table at once and names the column that tells its rows apart)."""

from __future__ import annotations

from dataclasses import dataclass

from inspector.errors import InspectorError
from inspector.model import Location
from inspector.sources.location import HistoryLocation
from inspector.sources.schemas import TABLE
from inspector.sources.schemas.contract import HistorySchema
from inspector.sources.sql.statements import Queries
from inspector.support.safe_text import shown_name

SHOWN_TABLES = 12  # tables named in the line saying a database holds no schema this tool reads


@dataclass(frozen=True)
class Backend:
    """What one kind of database reads: its `schemas` (by name, in recognition order), and how its
    refusals say it (`not_read`: of a `--format` it does not read, "does not read SQLite";
    `unknown`: of a database of no schema it reads, "this tool knows")."""

    schemas: dict[str, HistorySchema]
    not_read: str
    unknown: str


def recognise(
    db: Queries,
    place: Location,
    backend: Backend,
    format_name: str | None = None,
    table_name: str | None = None,
    mapping: dict[str, str] | None = None,
) -> HistoryLocation:
    """Where the sessions of the database at `place` are read from: the table named with
    `table_name` and `mapping`, the schema `format_name` names, or the one recognised."""
    if table_name is not None or mapping:
        if table_name is None or not mapping:
            raise InspectorError("--table and --map go together: --table T --map role=COL,content=COL")
        return HistoryLocation(place, TABLE.name, table_name, dict(mapping))
    tables = db.tables()
    if format_name is not None:
        schema = backend.schemas.get(format_name)
        if schema is None:
            raise InspectorError(
                f"{shown_name(place)}: --format {format_name} {backend.not_read} "
                f"(choose from {', '.join(backend.schemas)}, or use --table/--map)"
            )
        if schema.recognise is None or not schema.recognise(db, tables):
            raise InspectorError(
                f"{shown_name(place)}: does not have the tables of the {format_name} schema ({_found(tables)})"
            )
        return _located(place, schema)
    for schema in backend.schemas.values():
        if schema.recognise is not None and schema.recognise(db, tables):
            return _located(place, schema)
    raise InspectorError(
        f"{shown_name(place)}: not a chat history schema {backend.unknown} ({_found(tables)}); "
        "name the messages table with --table T --map role=COL,content=COL[,id=COL,session=COL,order=COL]"
    )


def _located(place: Location, schema: HistorySchema) -> HistoryLocation:
    """The location of a database recognised as `schema`: one read as a table of messages (Elia's)
    comes with its table and columns."""
    return HistoryLocation(place, schema.name, schema.table, dict(schema.mapping))


def _found(tables: dict[str, set[str]]) -> str:
    """The tables found, for a message (SQLite's own `sqlite_*` tables left out)."""
    names = sorted(name for name in tables if not name.startswith("sqlite_"))
    shown = ", ".join(names[:SHOWN_TABLES]) + (", ..." if len(names) > SHOWN_TABLES else "")
    return f"tables: {shown}" if names else "no tables"
