"""The audit table `inspector_fixes` that every SQLite write-back fills: one row per applied fix
with when, where (table and row id), the kind, the text before and after, whether a person edited
the fix, the calls it recovered, a note on anything the schema could not hold, and what the
user's executor answered for the calls it ran (`fix --execute`), the person's proposal for an
edited fix, and the calls it renamed; the entry is `inspector.repair.audit.audit_entry`'s."""

from __future__ import annotations

import json
import sqlite3
from typing import Any, Sequence

from inspector.model import AppliedFix, Session
from inspector.sources.base import AuditRecord, WrittenFix

AUDIT_TABLE = "inspector_fixes"
AUDIT_SCHEMA = f"""CREATE TABLE IF NOT EXISTS {AUDIT_TABLE} (
    id INTEGER PRIMARY KEY, applied_at TEXT NOT NULL, "table" TEXT, row_id TEXT, session_id TEXT, turn INTEGER,
    kind TEXT NOT NULL, before TEXT, after TEXT, edited INTEGER NOT NULL, recovered_calls TEXT, note TEXT,
    executions TEXT, proposed TEXT, rename_calls TEXT)"""
# Columns added after the first release: an audit table written by an older inspector gains them.
_LATER_COLUMNS = ("proposed", "rename_calls")


def fixed_row(session: Session, fix: AppliedFix, key: str = "id") -> Any:
    """The stored row the fix changed, as its audit row names it: the `key` (`id`, `hash`) of the
    row its turn was read from (None for a turn the repair added)."""
    turn = session.turn_at(fix.finding.turn)
    return turn.raw.get(key) if turn is not None and isinstance(turn.raw, dict) else None


def create_table(conn: sqlite3.Connection) -> None:
    """Create the audit table if missing, or add the columns an older one lacks."""
    conn.execute(AUDIT_SCHEMA)
    present = {column[1] for column in conn.execute(f"PRAGMA table_info({AUDIT_TABLE})")}
    for column in _LATER_COLUMNS:
        if column not in present:
            conn.execute(f"ALTER TABLE {AUDIT_TABLE} ADD COLUMN {column} TEXT")


def record(conn: sqlite3.Connection, audit: Sequence[AuditRecord]) -> None:
    """Insert one row per applied fix (in the caller's transaction)."""
    conn.executemany(
        f'INSERT INTO {AUDIT_TABLE} (applied_at, "table", row_id, session_id, turn, kind, before, after, edited, '
        "recovered_calls, note, executions, proposed, rename_calls) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [_values(record.written, record.entry) for record in audit])


def _values(row: WrittenFix, entry: dict) -> tuple:
    return (entry["applied_at"], row.table, None if row.row_id is None else str(row.row_id), entry["session_id"],
            entry["turn"], entry["kind"], entry["before"], entry["after"], int(entry["edited"]),
            _json(entry["recovered_calls"]), row.note or None, _json(entry["executions"]) if entry["executions"] else None,
            _json(entry["proposed"]), _json(entry["rename_calls"]))


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False)
