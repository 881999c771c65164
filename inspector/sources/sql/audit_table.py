"""The audit tables every database write-back fills (SQLite, and PostgreSQL through the same
`statements`): `inspector_fixes`, one row per applied fix with when, where (table and row id), the
kind, the text before and after, whether a person edited the fix, the calls it recovered, a note
on anything the schema could not hold, what the user's executor answered for the calls it ran
(`fix --execute`), the person's proposal for an edited fix, the calls it renamed, the `run` (one
conversation's write by one `fix`) and when it was undone; and `inspector_changes`, every row
that run changed with its image before and after (`row_changes`), from which `inspector undo`
reverts it. The entry is `inspector.repair.audit.audit_entry`'s. An audit table written by an
older inspector gains the later columns; its fixes, recorded without row images, cannot be undone.

Both are indexed on the columns their rows are looked up by (`AUDIT_INDEXES`): a conversation's
fixes (the check that a recorded fix is never applied twice), a run's (undo). The indexes are made
with the tables, and added to an older database's when a fix next writes it; reading never does."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from inspector.model import AppliedFix, Session
from inspector.sources.base import AuditRecord, WrittenFix
from inspector.sources.sql.statements import Statements

AUDIT_TABLE = "inspector_fixes"
CHANGES_TABLE = "inspector_changes"
SQLITE_KEY = "INTEGER PRIMARY KEY"
AUDIT_SCHEMA = """CREATE TABLE IF NOT EXISTS {table} (
    id {key}, applied_at TEXT NOT NULL, "table" TEXT, row_id TEXT, session_id TEXT, turn INTEGER,
    kind TEXT NOT NULL, before TEXT, after TEXT, edited INTEGER NOT NULL, recovered_calls TEXT, note TEXT,
    executions TEXT, proposed TEXT, rename_calls TEXT, run TEXT, undone_at TEXT)"""
CHANGES_SCHEMA = """CREATE TABLE IF NOT EXISTS {table} (
    id {key}, run TEXT NOT NULL, session_id TEXT, "table" TEXT NOT NULL, row_key TEXT NOT NULL, before TEXT,
    after TEXT)"""
# Columns added after the first release: an audit table written by an older inspector gains them.
_LATER_COLUMNS = ("proposed", "rename_calls", "run", "undone_at")
# name -> (table, columns): the lookups of `recorded_in` (by conversation) and of undo (by run).
AUDIT_INDEXES = {
    "inspector_fixes_by_session": (AUDIT_TABLE, "session_id"),
    "inspector_fixes_by_run": (AUDIT_TABLE, "run, session_id"),
    "inspector_changes_by_run": (CHANGES_TABLE, "run, session_id"),
}


def fixed_row(session: Session, fix: AppliedFix, key: str = "id") -> Any:
    """The stored row the fix changed, as its audit row names it: the `key` (`id`, `hash`) of the
    row its turn was read from (None for a turn the repair added)."""
    turn = session.turn_at(fix.finding.turn)
    return turn.raw.get(key) if turn is not None and isinstance(turn.raw, dict) else None


def create_tables(db: Statements, key: str = SQLITE_KEY) -> None:
    """Create the audit tables if missing (`key`: the id column's type, SQLite's or
    PostgreSQL's), or add the columns an older `inspector_fixes` lacks; then their indexes, if missing."""
    db.execute(AUDIT_SCHEMA.format(table=AUDIT_TABLE, key=key))
    db.execute(CHANGES_SCHEMA.format(table=CHANGES_TABLE, key=key))
    present = db.columns(AUDIT_TABLE)
    for column in _LATER_COLUMNS:
        if column not in present:
            db.execute(f"ALTER TABLE {AUDIT_TABLE} ADD COLUMN {column} TEXT")
    for name, (table, columns) in AUDIT_INDEXES.items():
        db.execute(f"CREATE INDEX IF NOT EXISTS {name} ON {table} ({columns})")


def record(db: Statements, audit: Sequence[AuditRecord], runs: dict[str | None, str | None]) -> None:
    """Insert one row per applied fix (in the caller's transaction); `runs` gives each session's
    run (None for a conversation whose changed rows were not recorded)."""
    db.executemany(
        f'INSERT INTO {AUDIT_TABLE} (applied_at, "table", row_id, session_id, turn, kind, before, after, edited, '
        "recovered_calls, note, executions, proposed, rename_calls, run) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(*_values(record.written, record.entry), runs.get(record.written.session_id)) for record in audit],
    )


def recorded_fixes(db: Statements, session_id: str | None) -> set[tuple[int, str, str]]:
    """The fixes the audit records as applied (and not undone) to conversation `session_id`:
    (turn, kind, text before)."""
    return recorded_in(db, [session_id])[session_id]


def recorded_in(db: Statements, session_ids: Sequence[str | None]) -> dict[str | None, set[tuple[int, str, str]]]:
    """`recorded_fixes` for each of `session_ids`, in one query."""
    found: dict[str | None, set[tuple[int, str, str]]] = {session_id: set() for session_id in session_ids}
    if not found or not db.has_table(AUDIT_TABLE):
        return found
    undone = " AND undone_at IS NULL" if "undone_at" in db.columns(AUDIT_TABLE) else ""
    named = [session_id for session_id in found if session_id is not None]
    kept = ([f"session_id IN ({', '.join('?' * len(named))})"] if named else []) + (
        ["session_id IS NULL"] if None in found else []
    )
    asked = {_text(session_id): session_id for session_id in found}  # a stored id is text: '5' for 5
    for session_id, *fix in db.execute(
        f"SELECT session_id, turn, kind, before FROM {AUDIT_TABLE} WHERE ({' OR '.join(kept)}){undone}", named
    ):
        found[asked[_text(session_id)]].add(tuple(fix))
    return found


def _text(session_id: Any) -> str | None:
    return None if session_id is None else str(session_id)


def _values(row: WrittenFix, entry: dict[str, Any]) -> tuple[Any, ...]:
    return (
        entry["applied_at"],
        row.table,
        None if row.row_id is None else str(row.row_id),
        entry["session_id"],
        entry["turn"],
        entry["kind"],
        entry["before"],
        entry["after"],
        int(entry["edited"]),
        _json(entry["recovered_calls"]),
        row.note or None,
        _json(entry["executions"]) if entry["executions"] else None,
        _json(entry["proposed"]),
        _json(entry["rename_calls"]),
    )


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False)
