"""What the writers of schemas that keep calls in a `tool_calls` table share (RubyLLM's, `llm`'s
before 0.32): the rows of a turn's calls or results in the order its reader gave them, and an
edited turn's calls written back."""

from __future__ import annotations

import json
from typing import Any

from inspector.model import Turn
from inspector.sources.sql.statements import Statements, quote


def stored_rows(conn: Statements, table: str, owner: str, owner_id: Any) -> list[Any]:
    """The ids of the rows of `table` (`tool_calls` or `tool_results`) whose column `owner` is
    `owner_id`, in id order: the order the readers give a turn its calls and results in, so the
    nth call of a turn is the nth row, whatever its `tool_call_id` (none, or one shared)."""
    return [
        row
        for (row,) in conn.execute(f"SELECT id FROM {quote(table)} WHERE {quote(owner)} = ? ORDER BY id", [owner_id])
    ]


def update_calls(conn: Statements, turn: Turn, owner: str, rows: list[Any] | None = None) -> None:
    """Give each stored call of an edited turn its name (a renamed call) and its arguments when a
    repair replaced them, in a `tool_calls` table whose column `owner` holds the turn's row id
    (`rows`: those rows' ids in id order, when the caller has read them already)."""
    stored = stored_rows(conn, "tool_calls", owner, turn.raw["id"]) if rows is None else rows
    for row, call in zip(stored, turn.tool_calls):
        arguments = json.dumps(call.arguments_raw, ensure_ascii=False) if isinstance(call.arguments_raw, dict) else None
        conn.execute(
            "UPDATE tool_calls SET name = ?, arguments = coalesce(?, arguments) WHERE id = ?",
            [call.name, arguments, row],
        )
