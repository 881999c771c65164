"""Writing SQLite histories never loses data: an existing database is replaced only with --force,
a backup that does not fit leaves nothing, in place the write lock is taken before the backup (no
edit lost, a second `fix` waits and finds nothing to do), no fix is applied twice, a database's
own triggers do not run unless allowed, a hot journal is reported as what it is, and a new
database or a backup is flushed before its rename and its folder after (a `kill -9` at each of
those steps leaves every database whole)."""

from __future__ import annotations

import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.sources.sqlite import database as sqlite_db
from inspector.sources.sqlite import history as sqlite_history
from inspector.sources.sqlite import write as sqlite_write
from tests.helpers.rubyllm import build_rubyllm, dump_database, messages_of
from tests.helpers.write_steps import check_durable, record_steps, run_pausing


def _rows(path: Path, sql: str) -> list[tuple]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def _fix(*arguments: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "inspector", "fix", *arguments], capture_output=True, text=True, timeout=timeout
    )


def test_an_existing_database_is_replaced_only_with_force(tmp_path, capsys):
    source = build_rubyllm(tmp_path / "app.db")
    out = tmp_path / "other.db"
    with sqlite3.connect(out) as conn:
        conn.execute("CREATE TABLE my_notes (body TEXT)")
        conn.execute("INSERT INTO my_notes VALUES ('keep me')")
    conn.close()
    assert main(["fix", str(source), "--accept", "all", "-o", str(out)]) == 2
    assert "exists already" in capsys.readouterr().err
    assert _rows(out, "SELECT body FROM my_notes") == [("keep me",)]
    assert main(["fix", str(source), "--accept", "all", "-o", str(out), "--force"]) == 0
    assert _rows(out, "SELECT count(*) FROM inspector_fixes") == [(3,)]
    fifo = tmp_path / "pipe.db"
    os.mkfifo(fifo)
    assert main(["fix", str(source), "--accept", "all", "-o", str(fifo), "--force"]) == 2
    assert "is not a regular file" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["app.db", "other.db", "pipe.db"]


def test_a_database_backup_that_does_not_fit_leaves_nothing(tmp_path):
    source = build_rubyllm(tmp_path / "app.db")
    with sqlite3.connect(source) as conn:  # a history large enough for the limit below to bite
        conn.execute("CREATE TABLE attachments (data BLOB)")
        conn.executemany("INSERT INTO attachments VALUES (?)", [(os.urandom(4096),)] * 64)
    conn.close()
    before = dump_database(source)
    limit = source.stat().st_size // 2

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    done = subprocess.run(
        [sys.executable, "-m", "inspector", "fix", str(source), "--accept", "all", "--in-place"],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=limited,
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert dump_database(source) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["app.db"]


def _after_the_backup(monkeypatch, then) -> None:
    """Run `then()` just after the in-place backup is copied, wherever the copy is made."""
    real = sqlite_db.copy_database

    def copy(source: Path, target: Path) -> None:
        real(source, target)
        then()

    monkeypatch.setattr(sqlite_write, "copy_database", copy)
    monkeypatch.setattr(sqlite_history, "copy_database", copy)


def test_an_edit_committed_while_fixing_in_place_is_not_lost(tmp_path, capsys, monkeypatch):
    source = build_rubyllm(tmp_path / "app.db")
    done = threading.Event()

    def edit() -> None:  # the chat app saves an edit of message 6 (which the fix repairs) meanwhile
        conn = sqlite3.connect(source, timeout=20)
        with conn:
            conn.execute("UPDATE messages SET content = 'edited by the app' WHERE id = 6")
        conn.close()
        done.set()

    editor = threading.Thread(target=edit)
    _after_the_backup(monkeypatch, lambda: (editor.start(), done.wait(0.5)))
    assert main(["fix", str(source), "--accept", "all", "--in-place"]) == 0
    editor.join(timeout=30)
    assert done.is_set()
    assert _rows(source, "SELECT content FROM messages WHERE id = 6") == [("edited by the app",)]
    assert _rows(source, "SELECT count(*) FROM inspector_fixes") == [(3,)]


@pytest.mark.slow  # waits on another fix's lock
def test_a_second_fix_in_place_waits_and_finds_nothing_left_to_do(tmp_path, capsys, monkeypatch):
    source = build_rubyllm(tmp_path / "app.db")
    second: list[subprocess.Popen] = []

    def start_another() -> None:  # another `fix --in-place` starts while this one has just backed up
        second.append(
            subprocess.Popen(
                [sys.executable, "-m", "inspector", "fix", str(source), "--accept", "all", "--in-place"],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
        try:
            second[0].wait(timeout=2)
        except subprocess.TimeoutExpired:
            pass  # it waits for the lock

    _after_the_backup(monkeypatch, start_another)
    assert main(["fix", str(source), "--accept", "all", "--in-place"]) == 0
    output, errors = second[0].communicate(timeout=30)
    assert second[0].returncode != 2, errors
    assert "0 fixes applied" in output
    assert _rows(source, "SELECT count(*) FROM inspector_fixes") == [(3,)]
    once = build_rubyllm(tmp_path / "once.db")
    assert main(["fix", str(once), "--accept", "all", "--in-place"]) == 0
    for table in ("messages", "tool_calls"):  # the recovered calls are stored once
        assert _rows(source, f"SELECT count(*) FROM {table}") == _rows(once, f"SELECT count(*) FROM {table}")


def test_a_fix_recorded_in_the_audit_table_is_never_applied_twice(logs_db, tmp_path, capsys):
    history = tmp_path / "logs.db"
    shutil.copy(logs_db, history)
    assert main(["fix", str(history), "--accept", "all", "--in-place"]) == 0  # the repair is a new fork
    forks = _rows(history, "SELECT count(*) FROM threads WHERE forked_from IS NOT NULL")
    audit = _rows(history, "SELECT count(*) FROM inspector_fixes")
    capsys.readouterr()
    main(["fix", str(history), "--accept", "all", "--in-place"])  # the original thread still has its fake result
    assert "0 fixes applied" in capsys.readouterr().out
    assert _rows(history, "SELECT count(*) FROM threads WHERE forked_from IS NOT NULL") == forks
    assert _rows(history, "SELECT count(*) FROM inspector_fixes") == audit


def test_the_databases_own_triggers_do_not_run_unless_allowed(tmp_path, capsys):
    source = build_rubyllm(tmp_path / "app.db")
    with sqlite3.connect(source) as conn:
        conn.execute("CREATE TRIGGER rewrite AFTER UPDATE ON messages BEGIN UPDATE messages SET content = 'pwned'; END")
        conn.execute("CREATE TRIGGER unrelated AFTER INSERT ON chats BEGIN SELECT 1; END")
    conn.close()
    before = dump_database(source)
    assert main(["fix", str(source), "--accept", "all", "--in-place"]) == 2
    err = capsys.readouterr().err
    assert "rewrite (on messages)" in err and "--allow-triggers" in err and "unrelated" not in err
    assert dump_database(source) == before
    assert main(["fix", str(source), "--accept", "all", "-o", str(tmp_path / "out.db")]) == 2
    assert not (tmp_path / "out.db").exists() and not [p for p in tmp_path.iterdir() if p.name.startswith(".")]
    capsys.readouterr()
    assert main(["fix", str(source), "--accept", "all", "-o", str(tmp_path / "out.db"), "--allow-triggers"]) == 0
    assert {content for (content,) in _rows(tmp_path / "out.db", "SELECT content FROM messages")} == {"pwned"}


def test_connections_treat_the_schema_as_untrusted(tmp_path):
    source = build_rubyllm(tmp_path / "app.db")
    with sqlite3.connect(source) as conn:
        conn.execute("CREATE VIEW stamped AS SELECT content || fts5_source_id() AS content FROM messages")
    conn.close()
    conn = sqlite_db.connect(source)
    try:  # a function SQLite deems neither harmless nor deterministic is refused in the file's view
        with pytest.raises(sqlite3.DatabaseError, match="not authorized"):
            conn.execute("SELECT content FROM stamped").fetchall()
    finally:
        conn.close()


def _leave_a_hot_journal(path: Path) -> None:
    """A program killed in the middle of writing `path`: its journal is left hot."""
    code = (
        "import os, signal, sqlite3, sys\n"
        "conn = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "conn.execute('PRAGMA cache_size = 1')\n"
        "conn.execute('BEGIN')\n"
        "conn.execute(\"UPDATE messages SET content = content || ' changed'\")\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(path)], timeout=30)
    assert done.returncode == -signal.SIGKILL


def test_a_hot_journal_is_reported_with_how_to_roll_it_back(tmp_path, capsys):
    source = build_rubyllm(tmp_path / "app.db", chats=_many_chats())
    _leave_a_hot_journal(source)
    assert (tmp_path / "app.db-journal").exists()
    assert main(["scan", str(source)]) == 2
    err = capsys.readouterr().err
    assert "unfinished write (a hot journal, app.db-journal" in err and "PRAGMA integrity_check" in err
    assert "read-only" not in err and err.count("\n") == 1


def _many_chats() -> list:
    return [[("user", f"note {n} " + "x" * 400, None), ("assistant", "ok " + "y" * 400, None)] for n in range(300)]


def test_reading_a_wal_database_changes_nothing_but_the_files_sqlite_needs_beside_it(tmp_path, capsys):
    source = build_rubyllm(tmp_path / "app.db")
    rollback = source.read_bytes()
    main(["scan", str(source)])
    assert source.read_bytes() == rollback and sorted(p.name for p in tmp_path.iterdir()) == ["app.db"]
    with sqlite3.connect(source) as conn:
        conn.execute("PRAGMA journal_mode = WAL")
    conn.close()
    wal = source.read_bytes()
    main(["scan", str(source)])
    assert source.read_bytes() == wal  # as the README says: only SQLite's -wal and -shm appear
    assert {p.name for p in tmp_path.iterdir()} <= {"app.db", "app.db-wal", "app.db-shm"}
    assert (tmp_path / "app.db-wal").stat().st_size == 0


def test_a_new_database_and_a_backup_are_flushed_before_their_rename_and_the_folder_after(tmp_path, monkeypatch):
    source = build_rubyllm(tmp_path / "app.db")
    steps = record_steps(monkeypatch, tmp_path)
    assert main(["fix", str(source), "--accept", "all", "-o", str(tmp_path / "out.db")]) == 0
    assert check_durable(steps) == ["out.db"], "\n".join(map(str, steps))
    steps.clear()
    assert main(["fix", str(source), "--accept", "all", "--in-place"]) == 0
    assert check_durable(steps) == ["app.db.bak"], "\n".join(map(str, steps))


@pytest.mark.slow  # kills a fix at each step of its write, into a new database and in place
@pytest.mark.parametrize("in_place", [False, True], ids=["output", "in-place"])
def test_a_fix_killed_at_any_step_of_its_write_leaves_each_database_whole(tmp_path, in_place):
    where = ["--in-place"] if in_place else ["-o", "out.db"]
    reference = tmp_path / "reference"
    reference.mkdir()
    original = _written(build_rubyllm(reference / "app.db"))
    steps = run_pausing(reference, 0, ["fix", str(reference / "app.db"), "--accept", "all", *_within(reference, where)])
    assert [step.split()[0] for step in steps].count("link") == 1, steps
    repaired = _written(reference / ("app.db" if in_place else "out.db"))
    for stop in range(1, len(steps) + 1):
        directory = tmp_path / f"step{stop}"
        directory.mkdir()
        build_rubyllm(directory / "app.db")
        logged = run_pausing(
            directory, stop, ["fix", str(directory / "app.db"), "--accept", "all", *_within(directory, where)]
        )
        assert logged[-1] == "paused" and logged[:-1] == steps[:stop], f"the kill did not land at step {stop}"
        names = {p.name for p in directory.iterdir() if not p.name.startswith(".")}
        assert names <= {"app.db", "app.db.bak", "out.db"}, names
        assert all(p.name.endswith(".tmp") for p in directory.iterdir() if p.name.startswith("."))
        assert _written(directory / "app.db") in ((original, repaired) if in_place else (original,))
        for whole in ("app.db.bak", "out.db"):
            if (directory / whole).exists():
                assert _written(directory / whole) == (original if whole == "app.db.bak" else repaired)


def _written(path: Path) -> tuple[list[tuple], list[tuple]]:
    """A RubyLLM database's messages and the kinds its audit records (none before a fix)."""
    audited = _rows(path, "SELECT name FROM sqlite_master WHERE name = 'inspector_fixes'")
    return messages_of(path), _rows(path, "SELECT kind FROM inspector_fixes ORDER BY id") if audited else []


def _within(directory: Path, where: list[str]) -> list[str]:
    """`fix`'s output options with the output's name inside `directory`."""
    return [str(directory / part) if part.endswith(".db") else part for part in where]
