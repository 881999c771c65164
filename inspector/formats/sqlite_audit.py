"""The audit table `inspector_fixes` that every SQLite write-back fills: one row per applied fix
with when, where (table and row id), the kind, the text before and after, whether a person edited
the fix, the calls it recovered, a note on anything the schema could not hold, and what the
user's executor answered for the calls it ran (`fix --execute`)."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from inspector.repair import AppliedFix

AUDIT_TABLE = "inspector_fixes"
AUDIT_SCHEMA = f"""CREATE TABLE IF NOT EXISTS {AUDIT_TABLE} (
    id INTEGER PRIMARY KEY, applied_at TEXT NOT NULL, "table" TEXT, row_id TEXT, session_id TEXT, turn INTEGER,
    kind TEXT NOT NULL, before TEXT, after TEXT, edited INTEGER NOT NULL, recovered_calls TEXT, note TEXT,
    executions TEXT)"""


@dataclass(frozen=True)
class AuditRow:
    """One applied fix as recorded in `inspector_fixes`: where it was written (`table`, `row_id`),
    and `note` saying anything the schema could not hold."""

    fix: AppliedFix
    session_id: str | None
    table: str
    row_id: Any
    note: str = ""


def record(conn: sqlite3.Connection, rows: list[AuditRow], stamp: str, ran: dict[tuple, Any]) -> None:
    """Insert the audit rows (in the caller's transaction); `ran` maps (session id, call id) to
    what the user's executor did with a recovered call (an `ExecutionResult`)."""
    conn.executemany(
        f'INSERT INTO {AUDIT_TABLE} (applied_at, "table", row_id, session_id, turn, kind, before, after, edited, '
        "recovered_calls, note, executions) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(stamp, row.table, None if row.row_id is None else str(row.row_id), row.session_id, row.fix.finding.turn,
          row.fix.finding.kind, row.fix.before, row.fix.after, int(row.fix.proposed is not None),
          json.dumps([{"id": c.id, "name": c.name, "arguments": c.arguments} for c in row.fix.recovered],
                     ensure_ascii=False), row.note or None, _executions(row, ran)) for row in rows])


def _executions(row: AuditRow, ran: dict[tuple, Any]) -> str | None:
    done = [ran[row.session_id, call.id].to_json() for call in row.fix.recovered if (row.session_id, call.id) in ran]
    return json.dumps(done, ensure_ascii=False) if done else None
