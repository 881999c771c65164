"""Writing a repaired LangChain session back to its `message_store` rows.

A repaired message is written over its own row's `message` (as `SQLChatMessageHistory` writes it,
`json.dumps(message_to_dict(message))`). LangChain reads a session's messages in `id` order, so
new messages (recovered calls and their `tool` results, before the fixed message) are inserted as
new rows and the rows of the session that must follow them are written again after them, each
with its own `message` text byte for byte. Rows before the first new message, and every other
session, are left alone. The same writer writes `message_store` on PostgreSQL, through `statements`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from inspector.errors import InspectorError
from inspector.model import AppliedFix, Session
from inspector.sources.base import WrittenFix
from inspector.sources.messages import langchain_dicts
from inspector.sources.messages.langchain_messages import rebuild
from inspector.sources.schemas.contract import conversation_id
from inspector.sources.sql.audit_table import fixed_row
from inspector.sources.sql.rows import decoded_json
from inspector.sources.sql.statements import Statements

TABLE = "message_store"


def write_session(conn: Statements, session: Session, fixes: Sequence[AppliedFix], stamp: str) -> list[WrittenFix]:
    """Write the session's repaired and new messages; returns one audit row per fix."""
    session_id = conversation_id(session)
    stored: dict[Any, str] = dict(
        conn.execute(f"SELECT id, message FROM {TABLE} WHERE session_id = ? ORDER BY id", [session_id])
    )
    own = {turn.raw["id"]: turn.raw for turn in session.turns if turn.raw is not None}
    if not own.keys() <= stored.keys():
        raise InspectorError(f"session {session_id!r} lost rows since it was read; write it again")
    records = [own.get(row_id) or {"id": row_id, "record": decoded_json(text)} for row_id, text in stored.items()]
    rows = rebuild(records, list(session.turns), _unwrap_row, _wrap_row)
    kept = next((index for index, row in enumerate(rows) if row["id"] is None), len(rows))
    originals = {id(record) for record in records}
    for row in rows[:kept]:
        if id(row) not in originals:
            conn.execute(f"UPDATE {TABLE} SET message = ? WHERE id = ?", [json.dumps(row["record"]), row["id"]])
    moved, written = _write_again(conn, session_id, rows[kept:], stored, originals)
    added = len(rows) - len(records)
    return [
        WrittenFix(fix, session_id, TABLE, moved.get(row, row), _note(row, moved, written, added))
        for fix in fixes
        for row in [fixed_row(session, fix)]
    ]


def _write_again(
    conn: Statements, session_id: str, rows: list[dict[str, Any]], stored: dict[Any, str], originals: set[int]
) -> tuple[dict[Any, int], list[int]]:
    """Replace the session's rows from the first of `rows` that has an id on by `rows`, in order,
    as new rows: a row unchanged keeps its `message` text. Returns where each old row's message is
    now (old id -> new id) and the ids of the rows written."""
    old = [row["id"] for row in rows if row["id"] is not None]
    if old:
        conn.execute(f"DELETE FROM {TABLE} WHERE session_id = ? AND id >= ?", [session_id, old[0]])
    moved, written = {}, []
    for row in rows:
        text = stored[row["id"]] if id(row) in originals else json.dumps(row["record"])
        written.append(conn.insert(TABLE, {"session_id": session_id, "message": text}))
        if row["id"] is not None:
            moved[row["id"]] = written[-1]
    return moved, written


def _unwrap_row(row: dict[str, Any]) -> tuple[Any, Any]:
    """The message type and fields of a row (`{"id", "record"}`), as `langchain_dicts.unwrap`."""
    return langchain_dicts.unwrap(row["record"])


def _wrap_row(row: Any, kind: str, fields: dict[str, Any]) -> dict[str, Any]:
    """The row holding a message's fields: `row`'s id with a record of them, or a new row (no id)."""
    if row is None:
        return {"id": None, "record": langchain_dicts.wrap(None, kind, fields)}
    return {"id": row["id"], "record": langchain_dicts.wrap(row["record"], kind, fields)}


def _note(row: Any, moved: dict[Any, int], written: list[int], added: int) -> str:
    """What the audit row of a fix made to the message of row `row` says about the rows written anew."""
    if row in moved:
        return (
            f"row {row} is now row {moved[row]}: the session's rows from row {min(moved)} on were written again "
            f"as rows {written[0]}-{written[-1]}, with {added} new messages among them, to keep the order "
            "LangChain reads messages in (by id)"
        )
    if written and not moved:
        return f"{added} new messages as rows {written[0]}-{written[-1]}, the last of the session"
    return ""
