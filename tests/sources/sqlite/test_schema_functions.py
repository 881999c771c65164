"""A database whose schema calls SQLite's built-in JSON functions (an index on `json_extract`, as
Kilo CLI's has) opens, is read and written; a view or trigger of the file calling a function that
is neither harmless nor deterministic is still refused, and nothing in the file runs on a read."""

from __future__ import annotations

import sqlite3

import pytest

from inspector.cli.main import main
from inspector.sources.sqlite import database as sqlite_db
from tests.helpers.rubyllm import build_rubyllm
from tests.helpers.samples import TOOL_SAMPLES


def test_the_kilo_database_with_json_extract_in_its_indexes_is_read(capsys):
    assert main(["scan", str(TOOL_SAMPLES / "kilo.db")]) == 1
    out = capsys.readouterr().out
    assert "malformed-arguments" in out and "tool-markup" in out and "result-prefix" in out


def _with_json_index(path):
    source = build_rubyllm(path)
    with sqlite3.connect(source) as conn:
        conn.execute("CREATE INDEX by_kind ON messages (json_extract(content, '$.kind')) WHERE json_valid(content)")
        conn.execute("CREATE INDEX quoted ON messages (json_quote(content))")
    conn.close()
    return source


def test_a_database_with_an_expression_index_on_json_extract_is_read_and_written(tmp_path, capsys):
    source = _with_json_index(tmp_path / "app.db")
    assert main(["scan", str(source)]) == 1
    assert main(["fix", str(source), "--accept", "all", "--in-place"]) == 0
    capsys.readouterr()
    assert main(["scan", str(source)]) == 0
    with sqlite3.connect(source) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    conn.close()


def _with_view(path, expression):
    source = build_rubyllm(path)
    with sqlite3.connect(source) as conn:
        conn.execute(f"CREATE VIEW shown AS SELECT id, role, {expression} AS content FROM messages")
    conn.close()
    return source


def test_a_view_calling_a_function_sqlite_deems_unsafe_is_refused(tmp_path):
    source = _with_view(tmp_path / "app.db", "content || fts5_source_id()")
    conn = sqlite_db.connect(source)
    try:
        with pytest.raises(sqlite3.DatabaseError, match="not authorized|unsafe use of fts5_source_id"):
            conn.execute("SELECT content FROM shown").fetchall()
    finally:
        conn.close()


def test_a_view_may_call_json_functions_and_harmless_ones(tmp_path):
    source = _with_view(
        tmp_path / "app.db",
        "upper(CASE WHEN json_valid(content) THEN json_extract(content, '$.text') ELSE content END)",
    )
    conn = sqlite_db.connect(source)
    try:
        assert conn.execute("SELECT count(*) FROM shown WHERE content <> ''").fetchone()[0] > 0
    finally:
        conn.close()


def test_where_sqlite_cannot_list_its_functions_the_schema_is_not_trusted(tmp_path, monkeypatch):
    monkeypatch.setattr(sqlite_db, "pure_functions", lambda: frozenset())
    source = _with_view(tmp_path / "app.db", "upper(content)")
    conn = sqlite_db.connect(source)
    try:
        assert conn.execute("PRAGMA trusted_schema").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM shown").fetchone()[0] > 0
    finally:
        conn.close()
