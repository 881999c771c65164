"""Bad SQLite input: each case is one line on stderr, exit 2, and the file left exactly as it was."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
import sqlite_utils

from inspector.cli.main import main
from inspector.sources.location import MAGIC
from inspector.sources.sqlite import database as sqlite_db
from tests.helpers.rubyllm import build_rubyllm


def _fails_with(capsys, path: Path, message: str, *options: str) -> None:
    before = path.read_bytes() if path.exists() else None
    siblings = sorted(p.name for p in path.parent.iterdir())
    assert main(["scan", str(path), *options]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("inspector: error: ") and captured.err.count("\n") == 1
    assert message in captured.err
    assert (path.read_bytes() if path.exists() else None) == before
    assert sorted(p.name for p in path.parent.iterdir()) == siblings  # no journal, no backup


def test_locked_database_waits_then_says_so(tmp_path, capsys, monkeypatch):
    path = build_rubyllm(tmp_path / "app.db")
    monkeypatch.setattr(sqlite_db, "BUSY_TIMEOUT", 0.2)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        assert main(["scan", str(path)]) == 2
        err = capsys.readouterr().err
        assert "the database is locked by another program (waited 0.2 s)" in err and err.count("\n") == 1
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_corrupt_database(tmp_path, capsys):
    path = tmp_path / "app.db"
    path.write_bytes(MAGIC + b"\x10\x00" + os.urandom(4000))
    _fails_with(capsys, path, "not a readable SQLite database")


def test_a_db_name_that_is_not_sqlite(tmp_path, capsys):
    path = tmp_path / "history.db"
    path.write_text('{"messages": []}')
    _fails_with(capsys, path, "not an SQLite database (it does not start with SQLite's header)")


def test_an_empty_db_file(tmp_path, capsys):
    path = tmp_path / "history.sqlite"
    path.write_bytes(b"")
    _fails_with(capsys, path, "file is empty, not an SQLite database")


def test_unrecognised_schema_names_its_tables_and_the_way_out(tmp_path, capsys):
    path = tmp_path / "notes.db"
    sqlite_utils.Database(path)["notes"].insert({"id": 1, "body": "hello"})
    _fails_with(
        capsys,
        path,
        "not a chat history schema this tool knows (tables: notes); "
        "name the messages table with --table T --map role=COL,content=COL",
    )


def test_missing_tables_for_a_forced_schema(tmp_path, capsys):
    path = build_rubyllm(tmp_path / "app.db")
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TABLE tool_calls")
    conn.close()
    _fails_with(
        capsys, path, "does not have the tables of the rubyllm schema (tables: chats, messages)", "--format", "rubyllm"
    )


def test_unknown_session_id(tmp_path, capsys):
    path = build_rubyllm(tmp_path / "app.db")
    assert main(["scan", str(path), "--session", "99"]) == 2
    assert main(["fix", str(path), "--session", "99", "--accept", "all", "-o", str(tmp_path / "out.db")]) == 2
    assert "no session '99'" in capsys.readouterr().err
    assert not (tmp_path / "out.db").exists()


def test_read_only_file_is_scanned_without_writing(tmp_path, capsys):
    path = build_rubyllm(tmp_path / "app.db")
    path.chmod(0o444)
    before = path.read_bytes()
    assert main(["scan", str(path)]) == 1
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["app.db"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write to any file")
def test_read_only_file_cannot_be_fixed_in_place(tmp_path, capsys):
    path = build_rubyllm(tmp_path / "app.db")
    path.chmod(0o444)
    before = path.read_bytes()
    assert main(["fix", str(path), "--accept", "all", "--in-place"]) == 2
    assert "read-only" in capsys.readouterr().err
    assert path.read_bytes() == before
