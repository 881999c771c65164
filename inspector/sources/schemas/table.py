"""Any table of chat messages, named on the command line: `--table T --map role=COL,content=COL
[,id=COL,session=COL,order=COL]`.

Rows are grouped into conversations by the `session` column (the whole table is one conversation
without it) and ordered by `order`, then `id` (SQLite's rowid when no `id` column is named; on
PostgreSQL, which has no rowid, the table's one-column primary key, which the location names).
Roles are read loosely (`human`, `ai`, `bot`, `model`, `function`, ...); a row with another role
is reported and skipped. Tool calls only exist as text here. Elia's `message` table is read and
written the same way. Never recognised: named with `--table/--map`. Written back by `_text_write`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any, Protocol

from inspector.errors import InspectorError
from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, AppliedFix, Location, Session, ToolResult, Turn
from inspector.sources.base import WrittenFix
from inspector.sources.location import HistoryLocation
from inspector.sources.schemas.contract import HistoryReader, HistorySchema, SchemaWriter
from inspector.sources.sql.rows import grouped
from inspector.sources.sql.statements import Queries, Scope, Statements, quote
from inspector.support.safe_text import shown_name

NAME = "table"
MAP_KEYS = ("role", "content", "id", "session", "order")
WHOLE_TABLE = "all"
ROLES = {
    "system": SYSTEM,
    "developer": SYSTEM,
    "user": USER,
    "human": USER,
    "assistant": ASSISTANT,
    "ai": ASSISTANT,
    "bot": ASSISTANT,
    "model": ASSISTANT,
    "gpt": ASSISTANT,
    "tool": TOOL,
    "function": TOOL,
    "observation": TOOL,
}


def parse_map(text: str) -> dict[str, str]:
    """`role=COL,content=COL,...` as a dict; `role` and `content` are required."""
    mapping: dict[str, str] = {}
    for item in (piece.strip() for piece in text.split(",")):
        key, equals, column = item.partition("=")
        if not equals or key.strip() not in MAP_KEYS or not column.strip():
            raise InspectorError(f"--map: {item!r} is not KEY=COLUMN with KEY one of {', '.join(MAP_KEYS)}")
        mapping[key.strip()] = column.strip()
    missing = [key for key in ("role", "content") if key not in mapping]
    if missing:
        raise InspectorError(f"--map: name the {' and '.join(missing)} column (e.g. --map role=role,content=body)")
    return mapping


def named_table_key(table_name: str | None, mapping: dict[str, str] | None) -> str | None:
    """The table and columns named with `--table T --map ...` as one text (the same for the same
    table and columns, whatever their order on the command line), telling apart two tables of one
    database read in turn; None when neither is named (the schema is recognised)."""
    if table_name is None and not mapping:
        return None
    return json.dumps({"table": table_name, "map": mapping or {}}, sort_keys=True, ensure_ascii=False)


def check(db: Queries, location: HistoryLocation) -> str:
    """Fail with one line when the table or a mapped column does not exist; the table's name."""
    tables = db.tables()
    name = location.table
    if not name or name not in tables:
        found = ", ".join(sorted(tables)) or "none"
        raise InspectorError(f"{shown_name(location.path)}: no table {name!r} (tables: {found})")
    columns = tables[name]
    missing = sorted(column for column in location.mapping.values() if column not in columns)
    if missing:
        raise InspectorError(
            f"{shown_name(location.path)}: table {name!r} has no column {', '.join(missing)} "
            f"(columns: {', '.join(sorted(columns))})"
        )
    return name


def conversations(db: Queries, location: HistoryLocation) -> Iterator[tuple[str, int]]:
    """Each conversation's id and message count, without reading any message."""
    table, session = quote(check(db, location)), location.mapping.get("session")
    if session is None:
        yield WHOLE_TABLE, db.value(f"SELECT count(*) FROM {table}")
        return
    for key, count in db.rows(f"SELECT {quote(session)}, count(*) FROM {table} GROUP BY 1 ORDER BY 1"):
        yield str(key), count


def sessions(db: Queries, location: HistoryLocation, only: str | None = None, start: int = 0) -> Iterator[Session]:
    """The table's conversations one at a time (only the one with id `only` when given), from the
    `start`th on."""
    name = quote(check(db, location))
    mapping = location.mapping
    if "session" not in mapping and (start or only not in (None, WHOLE_TABLE)):
        return
    session = quote(mapping["session"]) if "session" in mapping else "NULL"
    row_id = quote(mapping.get("id", "rowid"))
    order = ", ".join([session] + ([quote(mapping["order"])] if "order" in mapping else []) + [row_id])
    keys = f"SELECT {session} FROM {name} GROUP BY 1 ORDER BY 1"
    where, params = db.matching(session, only, start, keys) if "session" in mapping else ("", [])
    sql = (
        f"SELECT {row_id} AS id, {quote(mapping['role'])} AS role, {quote(mapping['content'])} AS content, "
        f"{session} AS session FROM {name} {where} ORDER BY {order}"
    )
    for key, rows in grouped(db.rows(sql, params), 3):
        yield table_session(location, WHOLE_TABLE if "session" not in mapping else str(key), rows)


class MessagesPlace(Protocol):
    """Where a table of messages was read from, as its sessions name it (their `path`, `format`
    and `document`): a database's `HistoryLocation`, or a Parquet dataset read on Spark."""

    @property
    def path(self) -> Location | str: ...
    @property
    def format(self) -> str: ...


def table_session(source: MessagesPlace, session_id: str, rows: list[Any]) -> Session:
    """One conversation of a table of messages: `rows` of (id, role, content, session) in order;
    `source` is where they came from."""
    turns, problems = [], []
    for position, (row_id, stated, content, _) in enumerate(rows):
        role = ROLES.get(str(stated).strip().lower())
        if role is None:
            problems.append(f"row {row_id}: role {stated!r} is not one this tool knows, skipped")
            continue
        text = content if isinstance(content, str) else "" if content is None else str(content)
        results = (ToolResult(None, None, text),) if role == TOOL else ()
        turns.append(Turn(position, role, text, str(row_id), (), results, {"id": row_id}))
    return Session(
        source.format, source.path, tuple(turns), document=source, session_id=session_id, problems=tuple(problems)
    )


def changed_rows(db: Statements, session: Session) -> Scope:
    """The rows of the turns edited (the only rows a write changes: a table has no place for a new turn)."""
    location: HistoryLocation = session.document
    edited = sorted({turn.raw["id"] for turn in session.turns if turn.edited and turn.raw is not None})
    column = quote(location.mapping.get("id", "rowid"))
    return [(location.messages_table(), f"{column} IN ({', '.join('?' * len(edited))})", edited)] if edited else []


def write(db: Statements, session: Session, fixes: Sequence[AppliedFix], stamp: str) -> list[WrittenFix]:
    """Write a conversation's edited turns back (`_text_write`, loaded only when writing)."""
    from inspector.sources.schemas._text_write import write_table

    return write_table(db, session, fixes, stamp)


READER = HistoryReader(conversations, sessions)
WRITER = SchemaWriter(write, changed_rows)  # writes the location's table
SCHEMA = HistorySchema(NAME, None, READER, WRITER)
