"""Chat histories kept in SQLite: recognising the schema and reading conversations lazily.

The public functions are what the command line and a conversation picker need:
`list_conversations` (ids and message counts, no message read), `schema_of` (the schema's name),
`load_conversation` (one
conversation as a `Session`) and `iter_sessions` (every conversation, one at a time, so a history
of a million messages is read with memory for one conversation). A schema module has `NAME`,
`matches(db, tables)`, `conversations(db, source)` and `sessions(db, source, only, start)`; adding a
schema means adding a module and listing it in `SCHEMAS` (Elia's module only recognises its
schema: `READERS` reads it with `sqlite_table`, its table and columns set in its source).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from inspector.errors import InspectorError
from inspector.sources.sqlite import elia as sqlite_elia, llm as sqlite_llm, llm_legacy as sqlite_llm_legacy
from inspector.sources.sqlite import open_webui as sqlite_open_webui, rubyllm as sqlite_rubyllm, table as sqlite_table
from inspector.sources.sqlite.database import SqliteSource, mapped_errors, reading, table_columns
from inspector.model import Session

if TYPE_CHECKING:  # annotations only: sqlite_utils is imported when a database is opened
    import sqlite_utils

SCHEMAS = {module.NAME: module for module in (sqlite_llm, sqlite_llm_legacy, sqlite_rubyllm,
                                              sqlite_open_webui, sqlite_elia)}
READERS = {**SCHEMAS, sqlite_elia.NAME: sqlite_table, sqlite_table.NAME: sqlite_table}  # Elia is a mapped table


def list_conversations(path: Path, format_name: str | None = None, table: str | None = None,
                       mapping: dict[str, str] | None = None) -> list[tuple[str, int]]:
    """Every conversation's id and message count, counted by SQLite without loading messages."""
    with reading(path) as db, mapped_errors(path, "listing conversations"):
        source = _source(db, Path(path), format_name, table, mapping)
        return list(READERS[source.format].conversations(db, source))


def schema_of(path: Path, format_name: str | None = None, table: str | None = None,
              mapping: dict[str, str] | None = None) -> str:
    """The name of the schema the database is read as (`rubyllm`, `llm`, ..., `table`)."""
    with reading(path) as db, mapped_errors(path, "recognising the schema"):
        return _source(db, Path(path), format_name, table, mapping).format


def load_conversation(path: Path, conversation_id: str, format_name: str | None = None, table: str | None = None,
                      mapping: dict[str, str] | None = None) -> Session:
    """The conversation `conversation_id` as a session; an unknown id is an `InspectorError`."""
    for session in iter_sessions(path, format_name, table, mapping, only=conversation_id):
        return session
    raise InspectorError(f"{path}: no conversation {conversation_id!r} (see `inspector scan {path}` for the ids)")


def iter_sessions(path: Path, format_name: str | None = None, table: str | None = None,
                  mapping: dict[str, str] | None = None, only: str | None = None, start: int = 0) -> Iterator[Session]:
    """Each conversation of the database as a session, read one at a time (only `only` when given),
    from number `start` (in `list_conversations`' order) on: those before are skipped by SQLite."""
    with reading(path) as db, mapped_errors(path, "reading conversations"):
        source = _source(db, Path(path), format_name, table, mapping)
        yield from READERS[source.format].sessions(db, source, only, start)


def _source(db: sqlite_utils.Database, path: Path, format_name: str | None, table: str | None,
            mapping: dict[str, str] | None) -> SqliteSource:
    if table is not None or mapping:
        if table is None or not mapping:
            raise InspectorError("--table and --map go together: --table T --map role=COL,content=COL")
        return SqliteSource(path, sqlite_table.NAME, table, dict(mapping))
    tables = table_columns(db)
    if format_name is not None:
        module = SCHEMAS.get(format_name)
        if module is None:
            raise InspectorError(f"{path}: --format {format_name} does not read SQLite "
                                 f"(choose from {', '.join(SCHEMAS)}, or use --table/--map)")
        if not module.matches(db, tables):
            raise InspectorError(f"{path}: does not have the tables of the {format_name} schema ({_found(tables)})")
        return _detected(path, format_name)
    for name, module in SCHEMAS.items():
        if module.matches(db, tables):
            return _detected(path, name)
    raise InspectorError(f"{path}: not a chat history schema this tool knows ({_found(tables)}); "
                         f"name the messages table with --table T --map role=COL,content=COL[,id=COL,session=COL,order=COL]")


def _detected(path: Path, name: str) -> SqliteSource:
    """The source of a database recognised as schema `name`: Elia's comes with its table and columns."""
    if name == sqlite_elia.NAME:
        return SqliteSource(path, name, sqlite_elia.TABLE, dict(sqlite_elia.MAPPING))
    return SqliteSource(path, name)


def _found(tables: dict[str, set[str]]) -> str:
    names = sorted(name for name in tables if not name.startswith("sqlite_"))
    return f"tables: {', '.join(names[:12])}{', ...' if len(names) > 12 else ''}" if names else "no tables"
