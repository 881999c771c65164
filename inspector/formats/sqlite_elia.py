"""Elia's `elia.sqlite`: `chat(id, model, title, started_at)` and `message(id, chat_id, role,
content, timestamp, meta, parent_id, model)`. One conversation per chat; tool calls only exist as
text. Read as the generic table with a fixed column mapping."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Iterator

from inspector.formats import sqlite_table
from inspector.formats.sqlite_db import SqliteSource
from inspector.model import Session

if TYPE_CHECKING:  # annotations only: sqlite_utils is imported when a database is opened
    import sqlite_utils

NAME = "elia"
TABLE = "message"
MAPPING = {"role": "role", "content": "content", "id": "id", "session": "chat_id", "order": "timestamp"}


def matches(db: sqlite_utils.Database, tables: dict[str, set[str]]) -> bool:
    """A `message` table with Elia's columns beside a `chat` table."""
    return "chat" in tables and {"id", "chat_id", "role", "content", "timestamp"} <= tables.get(TABLE, set())


def with_mapping(source: SqliteSource) -> SqliteSource:
    """The source with Elia's table and columns filled in."""
    return replace(source, table=TABLE, mapping=MAPPING)


def conversations(db: sqlite_utils.Database, source: SqliteSource) -> Iterator[tuple[str, int]]:
    """Each chat's id and message count."""
    return sqlite_table.conversations(db, with_mapping(source))


def sessions(db: sqlite_utils.Database, source: SqliteSource, only: str | None = None) -> Iterator[Session]:
    """Each chat as a session (only the chat `only` when given)."""
    return sqlite_table.sessions(db, with_mapping(source), only)
