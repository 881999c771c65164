"""Any table of chat messages, named on the command line: `--table T --map role=COL,content=COL
[,id=COL,session=COL,order=COL]`.

Rows are grouped into conversations by the `session` column (the whole table is one conversation
without it) and ordered by `order`, then `id` (the rowid when no `id` column is named). Roles are
read loosely (`human`, `ai`, `bot`, `model`, `function`, ...); a row with another role is reported
and skipped. Tool calls only exist as text here. Elia's `message` table is read the same way.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from inspector.errors import InspectorError
from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, Session, ToolResult, Turn
from inspector.sources.location import HistoryLocation
from inspector.sources.sqlite.database import grouped, matching, quote

if TYPE_CHECKING:  # annotations only: sqlite_utils is imported when a database is opened
    import sqlite_utils

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


def check(db: sqlite_utils.Database, source: HistoryLocation) -> None:
    """Fail with one line when the table or a mapped column does not exist."""
    if not source.table or not db[source.table].exists():
        found = ", ".join(sorted(db.table_names())) or "none"
        raise InspectorError(f"{source.path}: no table {source.table!r} (tables: {found})")
    columns = {column.name for column in db[source.table].columns}
    missing = sorted(column for column in source.mapping.values() if column not in columns)
    if missing:
        raise InspectorError(
            f"{source.path}: table {source.table!r} has no column {', '.join(missing)} "
            f"(columns: {', '.join(sorted(columns))})"
        )


def conversations(db: sqlite_utils.Database, source: HistoryLocation) -> Iterator[tuple[str, int]]:
    """Each conversation's id and message count, without reading any message."""
    check(db, source)
    table, session = quote(source.table), source.mapping.get("session")
    if session is None:
        yield WHOLE_TABLE, db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        return
    for key, count in db.execute(f"SELECT {quote(session)}, count(*) FROM {table} GROUP BY 1 ORDER BY 1"):
        yield str(key), count


def sessions(
    db: sqlite_utils.Database, source: HistoryLocation, only: str | None = None, start: int = 0
) -> Iterator[Session]:
    """The table's conversations one at a time (only the one with id `only` when given), from the
    `start`th on."""
    check(db, source)
    mapping = source.mapping
    session = quote(mapping["session"]) if "session" in mapping else "NULL"
    row_id = quote(mapping.get("id", "rowid"))
    order = ", ".join([session] + ([quote(mapping["order"])] if "order" in mapping else []) + [row_id])
    if "session" not in mapping and (start or only not in (None, WHOLE_TABLE)):
        return
    keys = f"SELECT {session} FROM {quote(source.table)} GROUP BY 1 ORDER BY 1"
    where, params = matching(session, only, start, keys) if "session" in mapping else ("", [])
    sql = (
        f"SELECT {row_id} AS id, {quote(mapping['role'])} AS role, {quote(mapping['content'])} AS content, "
        f"{session} AS session FROM {quote(source.table)} {where} ORDER BY {order}"
    )
    for key, rows in grouped(db.execute(sql, params), 3):
        yield table_session(source, WHOLE_TABLE if "session" not in mapping else str(key), rows)


def table_session(source: Any, session_id: str, rows: list[Any]) -> Session:
    """One conversation of a table of messages: `rows` of (id, role, content, session) in order;
    `source` is where they came from (its `path` and `format`): a database's `HistoryLocation`, a
    PostgreSQL table, or a Parquet dataset read on Spark."""
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
