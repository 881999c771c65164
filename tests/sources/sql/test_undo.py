"""`inspector undo` on SQLite histories: every row a fix changed is put back from the audit's
row images (RubyLLM's inserted calls and answers, LangChain's rows written again), a row changed
since is refused, `--since` and `--fix` choose what is undone, and an audit table written before
row images were recorded is read and refused in one line."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from inspector.cli.main import main
from tests.helpers.rubyllm import build_rubyllm
from tests.helpers.samples import LANGCHAIN_SQL


def _rows(path: Path, sql: str) -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def _history(path: Path, tables: tuple[str, ...] = ("messages", "tool_calls")) -> list[list[tuple]]:
    return [_rows(path, f"SELECT rowid, * FROM {table} ORDER BY rowid") for table in tables]


def test_undo_after_a_fix_in_place_gives_back_the_history_as_it_was(tmp_path, capsys):
    path = build_rubyllm(tmp_path / "app.db")
    original = _history(path)
    assert main(["fix", str(path), "--accept", "all", "--in-place"]) == 0
    assert _history(path) != original
    assert main(["undo", str(path)]) == 0
    assert "undid fixes 1, 2, 3 in 3 conversations" in capsys.readouterr().out
    assert _history(path) == original
    assert (
        _rows(path, "SELECT kind, undone_at IS NOT NULL FROM inspector_fixes WHERE kind = 'undo'")
        == [("undo", False)] * 3
    )


def test_langchains_rows_written_again_are_put_back_under_their_own_ids(tmp_path, capsys):
    path = tmp_path / "langchain.db"
    shutil.copy(LANGCHAIN_SQL, path)
    original = _history(path, ("message_store",))
    assert main(["fix", str(path), "--accept", "all", "--in-place"]) == 0
    assert main(["undo", str(path), "--fix", "1"]) == 0
    assert _history(path, ("message_store",)) == original


def test_since_and_a_row_changed_since_choose_and_refuse(tmp_path, capsys):
    path = build_rubyllm(tmp_path / "app.db")
    assert main(["fix", str(path), "--accept", "all", "--in-place"]) == 0
    capsys.readouterr()
    assert main(["undo", str(path), "--since", "2999-01-01"]) == 2
    assert "no fix applied since 2999-01-01T00:00:00+00:00" in capsys.readouterr().err
    assert main(["undo", str(path), "--since", "yesterday"]) == 2
    assert "--since: 'yesterday' is not a date" in capsys.readouterr().err
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE messages SET content = 'edited by the app' WHERE id = 6")
    conn.close()
    changed = _history(path)
    assert main(["undo", str(path), "--since", "2000-01-01"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "messages row 6 changed since fix 1 wrote it" in error
    assert _history(path) == changed


def test_an_audit_table_of_an_older_inspector_is_refused_in_one_line(tmp_path, capsys):
    path = build_rubyllm(tmp_path / "app.db")
    with sqlite3.connect(path) as conn:  # inspector_fixes as the first releases made it
        conn.execute(
            'CREATE TABLE inspector_fixes (id INTEGER PRIMARY KEY, applied_at TEXT NOT NULL, "table" TEXT, '
            "row_id TEXT, session_id TEXT, turn INTEGER, kind TEXT NOT NULL, before TEXT, after TEXT, "
            "edited INTEGER NOT NULL, recovered_calls TEXT, note TEXT, executions TEXT)"
        )
        conn.execute(
            "INSERT INTO inspector_fixes (applied_at, kind, edited, session_id, turn, before) "
            "VALUES ('2026-01-01T00:00:00+00:00', 'tool-markup', 0, '9', 1, 'x')"
        )
    conn.close()
    assert main(["undo", str(path)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "recorded by an older inspector" in error
    assert main(["fix", str(path), "--accept", "all", "--in-place"]) == 0  # the old table gains the new columns
    assert main(["undo", str(path), "--fix", "1"]) == 2
    assert "fix 1 has no recorded row images" in capsys.readouterr().err
    assert main(["undo", str(path), "--fix", "2"]) == 0


def test_the_databases_own_triggers_refuse_the_undo_unless_allowed(tmp_path, capsys):
    path = build_rubyllm(tmp_path / "app.db")
    assert main(["fix", str(path), "--accept", "all", "--in-place"]) == 0
    with sqlite3.connect(path) as conn:  # added after the fix: it would run on what undo puts back
        conn.execute("CREATE TABLE edits (message_id INTEGER)")
        conn.execute("CREATE TRIGGER note_edits AFTER UPDATE ON messages BEGIN INSERT INTO edits VALUES (NEW.id); END")
        conn.execute("CREATE TRIGGER unrelated AFTER INSERT ON chats BEGIN SELECT 1; END")
    conn.close()
    fixed = _history(path)
    capsys.readouterr()
    assert main(["undo", str(path)]) == 2
    error = capsys.readouterr().err
    assert error == (
        f"inspector: error: {path}: the database's own trigger note_edits (on messages) would run on the rows "
        "this undo writes, and could change them; rolled back, nothing was undone "
        "(--allow-triggers lets it run)\n"
    )
    assert _history(path) == fixed
    assert _rows(path, "SELECT count(*) FROM inspector_fixes WHERE kind = 'undo' OR undone_at IS NOT NULL") == [(0,)]
    assert main(["undo", str(path), "--allow-triggers"]) == 0
    assert _rows(path, "SELECT message_id FROM edits ORDER BY 1") == [
        (6,),
        (16,),
    ]  # the trigger ran on the texts put back
