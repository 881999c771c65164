"""The index on disk: kept up to date incrementally (an unchanged session is not read again, an
appended one shows its new turn, a deleted one leaves), rebuilt when broken, safe with two
processes at once, never holding a secret the redaction finds, and covering each conversation of
an SQLite history."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import inspector.search.reading as reading
from inspector.cli.main import main
from inspector.errors import InspectorError
from inspector.search import SearchFilter, index_path, index_targets, open_index, search, update_index
from tests.helpers.samples import SESSIONS, TOOL_SAMPLES
from tests.search.helpers import searched, searched_json

SECRET = "sk-proj-" + "Zq8rT2vX9kL4mN7pW3sY6bH1cF5gJ0dA"


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The files the index reads from now on (each time `read_file` runs: in this process alone)."""
    read: list[Path] = []
    monkeypatch.setattr("inspector.search.indexer.PARALLEL_FROM", 10**9)
    original = reading.read_file

    def counted(path: Path) -> reading.FileRows:
        read.append(path)
        return original(path)

    monkeypatch.setattr("inspector.search.indexer.read_file", counted)
    return read


def test_an_unchanged_session_is_not_read_again(placed, capsys, monkeypatch):
    read = _reads(monkeypatch)
    first = searched_json(capsys, "notes")["index"]
    assert first["read"] == first["files"] == len(read) == len(set(placed.values()))
    read.clear()
    again = searched_json(capsys, "notes")["index"]
    assert (again["read"], again["unchanged"], read) == (0, first["files"], [])


def test_a_session_rewritten_at_the_same_size_and_time_is_read_again(placed, capsys, monkeypatch):
    searched_json(capsys, "notes")
    claude = placed["Claude Code"]
    status = claude.stat()
    text = claude.read_text(encoding="utf-8")
    claude.write_text(text.replace("Thursday", "Saturday"), encoding="utf-8")  # as long: the same size
    os.utime(claude, ns=(status.st_atime_ns, status.st_mtime_ns))
    read = _reads(monkeypatch)
    document = searched_json(capsys, "Saturday", "--agent", "claude code")
    assert read == [claude] and document["hits"]


def test_an_appended_json_lines_session_shows_its_new_turn(placed, capsys):
    assert not searched_json(capsys, "marzipanelephant")["hits"]
    claude = placed["Claude Code"]
    last = json.loads(claude.read_text(encoding="utf-8").splitlines()[-1])
    record = {
        "type": "user",
        "message": {"role": "user", "content": "a marzipanelephant walks in"},
        "uuid": "0c6d1c39-8f9b-4d55-9df4-2f0f3c0e2a11",
        "parentUuid": last.get("uuid"),
        "sessionId": last.get("sessionId"),
        "timestamp": "2026-11-24T03:20:00.000Z",
        "cwd": "/tmp/cc-work",
    }
    with claude.open("a", encoding="utf-8") as file:
        file.write(json.dumps(record) + "\n")
    document = searched_json(capsys, "marzipanelephant")
    assert [(hit["path"], hit["role"]) for hit in document["hits"]] == [(str(claude), "user")]
    assert document["index"]["read"] == 1


def test_a_deleted_session_leaves_the_index(placed, capsys):
    assert searched_json(capsys, "Thursday", "--agent", "gemini cli")["hits"]
    placed["Gemini CLI"].unlink()
    document = searched_json(capsys, "Thursday", "--agent", "gemini cli")
    assert document["hits"] == [] and document["index"]["removed"] == 1


@pytest.mark.parametrize(
    "garbage",
    [b"this is not a database at all" * 100, b"SQLite format 3\x00" + b"\xff" * 4080, b""],
    ids=["text", "a broken header", "empty"],
)
def test_garbage_over_the_index_is_moved_aside_and_rebuilt(placed, capsys, garbage):
    searched_json(capsys, "notes")
    index = index_path()
    for suffix in ("-wal", "-shm"):
        Path(f"{index}{suffix}").unlink(missing_ok=True)
    index.write_bytes(garbage)
    code, out, err = searched(capsys, "Thursday")
    assert code == 0, err
    assert "Thursday" in out
    assert (not garbage) or any(path.name.startswith("search.db.broken-") for path in index.parent.iterdir())


def test_an_index_of_another_version_is_rebuilt(placed, capsys):
    searched_json(capsys, "notes")
    connection = open_index()
    connection.execute("UPDATE meta SET value = '0' WHERE key = 'schema'")
    connection.close()
    document = searched_json(capsys, "Thursday")
    assert document["hits"] and document["index"]["read"] == document["index"]["files"]


def test_reindex_builds_it_again(placed, capsys, monkeypatch):
    searched_json(capsys, "notes")
    read = _reads(monkeypatch)
    document = searched_json(capsys, "notes", "--reindex")
    assert document["index"]["read"] == len(read) == document["index"]["files"] and document["hits"]


def test_a_secret_in_a_session_is_not_in_the_index_file(tmp_path, capsys):
    session = tmp_path / "leaky.json"
    session.write_text(
        json.dumps(
            {
                "messages": [
                    {"role": "user", "content": f"deploy with OPENAI_API_KEY={SECRET} and mail ops@example.com"},
                    {"role": "assistant", "content": "deploying now"},
                ]
            }
        ),
        encoding="utf-8",
    )
    document = searched_json(capsys, "deploy", str(session))
    assert document["hits"] and "[REDACTED:openai-key]" in document["hits"][0]["snippet"]
    data = b"".join(
        Path(f"{index_path()}{suffix}").read_bytes()
        for suffix in ("", "-wal")
        if Path(f"{index_path()}{suffix}").exists()
    )
    assert SECRET.encode() not in data and b"ops@example.com" not in data
    assert b"REDACTED:openai-key" in data


def test_each_conversation_of_a_sqlite_history_is_a_session(tmp_path, capsys):
    history = Path(shutil.copy(SESSIONS / "rails-chat.rubyllm.db", tmp_path / "rails-chat.rubyllm.db"))
    document = searched_json(capsys, "", str(history), "--limit", "100")
    assert len({hit["session_id"] for hit in document["hits"]}) == 3
    assert {hit["format"] for hit in document["hits"]} == {"rubyllm"}


def test_two_processes_indexing_at_once_leave_one_whole_index(empty_home, tmp_path):
    folder = tmp_path / "sessions"
    shutil.copytree(TOOL_SAMPLES, folder, ignore=shutil.ignore_patterns("generate", "hooks", "masked"))
    command = [sys.executable, "-m", "inspector", "search", "notes", "--json", str(folder), str(SESSIONS)]
    both = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    outputs = [process.communicate(timeout=300) for process in both]
    assert [process.returncode for process in both] == [0, 0], [err for _, err in outputs]
    assert all(json.loads(out)["hits"] for out, _ in outputs)
    connection = open_index()
    files = connection.execute("SELECT count(*), count(DISTINCT path) FROM files").fetchone()
    update = update_index(connection, index_targets([folder, SESSIONS]))
    hits = search(connection, "notes", SearchFilter(), 1000)
    connection.close()
    assert files[0] == files[1] == update.files > 16 and update.read == 0
    assert len(hits) == len({(hit.path, hit.session, hit.turn, hit.role) for hit in hits})


def test_openers_of_a_new_index_at_once_each_get_it(tmp_path):
    """Three openers of an index not made yet, at once, a hundred times over: each gets it. (Each
    turns the new file to WAL mode, and SQLite answered all but one busy at once, without its wait:
    about one time in thirty, one of them failed.)"""
    failures: list[str] = []

    def open_it(path: Path, start: threading.Barrier) -> None:
        start.wait()
        try:
            open_index(path).close()
        except InspectorError as error:
            failures.append(str(error))

    for trial in range(100):
        path = tmp_path / str(trial) / "search.db"
        path.parent.mkdir()
        start = threading.Barrier(3)
        openers = [threading.Thread(target=open_it, args=(path, start)) for _ in range(3)]
        for opener in openers:
            opener.start()
        for opener in openers:
            opener.join()
    assert failures == []


def test_an_index_another_process_holds_locked_is_left_as_it_is(placed, capsys, monkeypatch):
    """A lock held past the wait says so in one line; the index is not taken for a broken one:
    nothing is moved aside, and the next search finds what the index holds."""
    searched_json(capsys, "notes")
    monkeypatch.setattr("inspector.search.index_file.BUSY_TIMEOUT", 0.1)
    holder = sqlite3.connect(index_path(), isolation_level=None)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("INSERT INTO meta VALUES ('held', 'by another process')")  # takes the file's lock
    try:
        with pytest.raises(InspectorError, match="cannot open the search index .*locked"):
            open_index()
        assert main(["search", "notes"]) == 2
        assert "locked" in capsys.readouterr().err
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert not [path for path in index_path().parent.iterdir() if ".broken-" in path.name]
    assert searched_json(capsys, "notes")["index"]["read"] == 0  # the same index, kept
