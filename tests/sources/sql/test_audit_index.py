"""The audit tables are indexed on what their rows are looked up by: SQLite's query plans for the
"never applied twice" check (a conversation's fixes) and for undo (a run's fixes and changed rows)
use the indexes; an older database gains them when a fix next writes it, never when it is only
read; PostgreSQL's fix makes them too."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import psycopg

from inspector.cli.main import main
from inspector.sources.sql.audit_table import recorded_in
from inspector.sources.sql.undo import undo
from inspector.sources.sqlite.statements import SqliteStatements
from tests.helpers.postgres_histories import build_rubyllm_postgres
from tests.helpers.rubyllm import build_rubyllm

INDEXES = ["inspector_changes_by_run", "inspector_fixes_by_run", "inspector_fixes_by_session"]


def _indexes(path: Path) -> list[str]:
    with sqlite3.connect(path) as conn:
        found = [
            name
            for (name,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'inspector%' ORDER BY name"
            )
        ]
    conn.close()
    return found


def _lookups(path: Path) -> list[str]:
    """Every statement the check for recorded fixes and an undo run on the audit tables that looks
    rows up by conversation or run (the undo rolled back)."""
    conn = sqlite3.connect(path, isolation_level=None)
    statements: list[str] = []
    try:
        conn.set_trace_callback(statements.append)
        recorded_in(SqliteStatements(conn), ["1", "2", None])
        conn.execute("BEGIN")
        undo(SqliteStatements(conn))
        conn.execute("ROLLBACK")
        conn.set_trace_callback(None)
        audit = [
            sql
            for sql in statements
            if "inspector_" in sql
            and ("session_id" in sql or "run =" in sql)
            and not sql.lstrip().upper().startswith("INSERT")
        ]
        return [" | ".join(row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}")) for sql in audit]
    finally:
        conn.close()


def test_the_audit_lookups_of_the_never_twice_check_and_of_undo_use_the_indexes(tmp_path: Path):
    path = build_rubyllm(tmp_path / "app.db")
    assert main(["fix", str(path), "--accept", "all", "--in-place"]) == 0
    plans = _lookups(path)
    assert len(plans) >= 4  # the check, undo's choice of run, its fixes, their changed rows, marking them undone
    assert all("INDEX inspector_" in plan and "SCAN inspector_" not in plan for plan in plans), plans
    assert any("inspector_fixes_by_session" in plan for plan in plans)
    assert any("inspector_fixes_by_run" in plan for plan in plans)
    assert any("inspector_changes_by_run" in plan for plan in plans)
    assert _indexes(path) == INDEXES


def test_an_older_database_gains_the_indexes_when_a_fix_writes_it_not_when_it_is_read(tmp_path: Path, capsys):
    path = build_rubyllm(tmp_path / "app.db")
    assert main(["fix", str(path), "--accept", "all", "--in-place"]) == 0
    with sqlite3.connect(path) as conn:  # as an inspector without the indexes left it
        for name in INDEXES:
            conn.execute(f"DROP INDEX {name}")
    conn.close()
    before = path.read_bytes()
    assert main(["scan", str(path)]) == 0  # read: every finding was fixed
    assert path.read_bytes() == before and _indexes(path) == []
    assert main(["undo", str(path)]) == 0
    assert _indexes(path) == []  # undo writes rows, not the schema
    assert main(["fix", str(path), "--accept", "all", "--in-place"]) == 0
    assert _indexes(path) == INDEXES


def test_a_fix_on_postgresql_makes_the_indexes(postgres_db):
    url = build_rubyllm_postgres(postgres_db)
    assert main(["fix", url, "--accept", "all", "--in-place"]) == 0
    with psycopg.connect(url) as conn:
        found = [
            name
            for (name,) in conn.execute(
                "SELECT indexname FROM pg_indexes WHERE indexname LIKE 'inspector%by%' ORDER BY 1"
            )
        ]
    assert found == INDEXES
