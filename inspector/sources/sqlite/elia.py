"""Elia's `elia.sqlite`: `chat(id, model, title, started_at)` and `message(id, chat_id, role,
content, timestamp, meta, parent_id, model)`. One conversation per chat; tool calls only exist as
text. Only recognised here: `history.SqliteHistory` reads and writes it as the generic table
(`table`) with Elia's `TABLE` and column `MAPPING`."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: sqlite_utils is imported when a database is opened
    import sqlite_utils

NAME = "elia"
TABLE = "message"
MAPPING = {"role": "role", "content": "content", "id": "id", "session": "chat_id", "order": "timestamp"}


def matches(db: sqlite_utils.Database, tables: dict[str, set[str]]) -> bool:
    """A `message` table with Elia's columns beside a `chat` table."""
    return "chat" in tables and {"id", "chat_id", "role", "content", "timestamp"} <= tables.get(TABLE, set())
