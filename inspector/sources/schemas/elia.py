"""Elia's `elia.sqlite`: `chat(id, model, title, started_at)` and `message(id, chat_id, role,
content, timestamp, meta, parent_id, model)`. One conversation per chat; tool calls only exist as
text. Recognised here, then read and written as a table of messages (`table`) with Elia's
`TABLE` and column `MAPPING`, which its location carries."""

from __future__ import annotations

from inspector.sources.schemas import table
from inspector.sources.schemas.contract import HistorySchema
from inspector.sources.sql.statements import Queries

NAME = "elia"
TABLE = "message"
MAPPING = {"role": "role", "content": "content", "id": "id", "session": "chat_id", "order": "timestamp"}


def recognise(db: Queries, tables: dict[str, set[str]]) -> bool:
    """A `message` table with Elia's columns beside a `chat` table."""
    return "chat" in tables and {"id", "chat_id", "role", "content", "timestamp"} <= tables.get(TABLE, set())


SCHEMA = HistorySchema(NAME, recognise, table.READER, table.WRITER, table=TABLE, mapping=MAPPING)
