"""Writing a repaired Agents SDK session back to its `agent_messages` rows.

A repaired item is written over its own row's `message_data` (as the SDK writes it,
`json.dumps(item)`). The SDK reads a session's items in `id` order and a row's id cannot be
changed into one between two others, so new items (recovered calls as `function_call` and
`function_call_output` rows before the fixed message) are inserted as new rows, and the rows of
the session that must follow them are written again after them, each with its own `message_data`
(byte for byte) and `created_at`; new rows take the `created_at` of the row they stand beside.
Rows before the first new item, and every other session, are left alone; the session's
`agent_sessions` row gets its `updated_at` (and is made when missing) as when the SDK adds items.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from inspector.errors import InspectorError
from inspector.model import AppliedFix, Session
from inspector.sources.base import WrittenFix
from inspector.sources.messages.responses_items import rebuild
from inspector.sources.schemas.contract import conversation_id
from inspector.sources.sql.audit_table import fixed_row
from inspector.sources.sql.rows import decoded_json
from inspector.sources.sql.statements import Statements
from inspector.support.counted_words import counted

MESSAGES = "agent_messages"


def write_session(conn: Statements, session: Session, fixes: Sequence[AppliedFix], stamp: str) -> list[WrittenFix]:
    """Write the session's repaired and new items; returns one audit row per fix."""
    session_id = conversation_id(session)
    stored = {
        row_id: (data, created)
        for row_id, data, created in conn.execute(
            f"SELECT id, message_data, created_at FROM {MESSAGES} WHERE session_id = ? ORDER BY id",
            [session_id],
        )
    }
    own = {turn.raw["id"]: turn.raw for turn in session.turns if turn.raw is not None}
    if not own.keys() <= stored.keys():
        raise InspectorError(f"session {session_id!r} lost rows since it was read; write it again")
    records = [own.get(row_id) or {"id": row_id, "item": decoded_json(data)} for row_id, (data, _) in stored.items()]
    rows = rebuild(records, session.turns, _item_of, _rows)
    kept = next(
        (index for index, (old, new) in enumerate(zip(records, rows)) if old["id"] != new["id"]),
        min(len(records), len(rows)),
    )
    for old, new in zip(records[:kept], rows[:kept]):
        if new is not old:
            conn.execute(f"UPDATE {MESSAGES} SET message_data = ? WHERE id = ?", [json.dumps(new["item"]), new["id"]])
    conn.execute("INSERT OR IGNORE INTO agent_sessions (session_id) VALUES (?)", [session_id])  # as the SDK
    moved, written = _write_again(conn, session_id, records[kept:], rows[kept:], stored)
    conn.execute("UPDATE agent_sessions SET updated_at = CURRENT_TIMESTAMP WHERE session_id = ?", [session_id])
    added = len(rows) - len(records)
    return [
        WrittenFix(fix, session_id, MESSAGES, moved.get(row, row), _note(row, moved, written, added))
        for fix in fixes
        for row in [fixed_row(session, fix)]
    ]


def _write_again(
    conn: Statements,
    session_id: str,
    old: list[dict[str, Any]],
    new: list[dict[str, Any]],
    stored: dict[Any, tuple[Any, Any]],
) -> tuple[dict[Any, int], list[int]]:
    """Replace the session's last rows `old` by the rows `new`, in order, as new rows: an old row
    unchanged keeps its `message_data` text. Returns where each old row's item is now (old id ->
    new id) and the ids of the rows written."""
    if old:
        conn.execute(f"DELETE FROM {MESSAGES} WHERE session_id = ? AND id >= ?", [session_id, old[0]["id"]])
    unchanged = {id(row) for row in old}
    moved, written = {}, []
    for row in new:
        data, created = stored[row["near"] if row["id"] is None else row["id"]]
        if id(row) not in unchanged:
            data = json.dumps(row["item"])
        written.append(conn.insert(MESSAGES, {"session_id": session_id, "message_data": data, "created_at": created}))
        if row["id"] is not None:
            moved[row["id"]] = written[-1]
    return moved, written


def _item_of(row: dict[str, Any]) -> Any:
    return row["item"]


def _rows(items: list[Any], near: dict[str, Any], replacing: bool) -> list[dict[str, Any]]:
    """Rows holding `items`: the first keeps the id of the row `near` it replaces; the others are
    new, stamped as `near` is."""
    return [
        {"id": near["id"] if replacing and index == 0 else None, "item": item, "near": near["id"]}
        for index, item in enumerate(items)
    ]


def _note(row: Any, moved: dict[Any, int], written: list[int], added: int) -> str:
    """What the audit row of a fix made to the item of row `row` says about the rows written anew."""
    if row in moved:
        return (
            f"row {row} is now row {moved[row]}: the session's rows from row {min(moved)} on were written again "
            f"as rows {written[0]}-{written[-1]}, with {counted(added, 'new item', 'new items')} among them, to keep the order the SDK "
            "reads items in (by id)"
        )
    if written and not moved:
        return f"{counted(added, 'new item', 'new items')} as rows {written[0]}-{written[-1]}, the last of the session"
    return ""
