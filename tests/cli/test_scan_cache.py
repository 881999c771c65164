"""`scan` and `report` with the search index as their cache: a second run over unchanged files
takes them from the index (`--cache-stats` says so) and prints exactly what a full read prints;
a changed, removed or differently read file, a broken or locked index, all give the answer of a
full read."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import inspector
from inspector.cli.main import main
from inspector.search import index_path
from inspector.search.detection_key import _inspector_stamp
from inspector.sources import session_files
from tests.helpers.home_sessions import every_agent_s_session
from tests.helpers.samples import SESSIONS, TOOL_SAMPLES

STATS = re.compile(r"inspector: cache: ([\d,]+) files? taken from the search index, ([\d,]+) read")


def _every_sample() -> list[str]:
    """Every committed session file (the bundled samples and the real tools' files)."""
    folders = [
        folder
        for root in (SESSIONS, TOOL_SAMPLES)
        for folder in (root, *root.rglob("*"))
        if folder.is_dir() and "generate" not in folder.relative_to(root).parts
    ]
    return sorted({str(path) for folder in folders for path in session_files(folder)})


def _run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    """`inspector ARGUMENTS...`: its exit code, standard output and standard error."""
    code = main(list(arguments))
    out, err = capsys.readouterr()
    return code, out, err


def _stats(err: str) -> tuple[int, int]:
    """The files taken from the index and the files read, as `--cache-stats` said."""
    (taken, read), *_ = STATS.findall(err)
    return int(taken.replace(",", "")), int(read.replace(",", ""))


def _timeless(out: str) -> str:
    """`out` without the time a report says it was made at (a JUnit report's timestamp, a shared
    report's minute: two runs a second apart may fall either side of one)."""
    return re.sub(r' timestamp="[^"]*"| on \d{4}-\d\d-\d\d \d\d:\d\d UTC', "", out)


def _errors(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("inspector: error:")]


@pytest.mark.parametrize("output", [["--json"], []], ids=["json", "text"])
def test_a_second_scan_of_every_sample_reads_nothing_and_prints_what_a_full_read_prints(capsys, output):
    samples = _every_sample()
    first = _run(capsys, "scan", *output, "--cache-stats", *samples)
    second = _run(capsys, "scan", *output, "--cache-stats", *samples)
    full = _run(capsys, "scan", *output, "--no-cache", *samples)
    assert (second[0], second[1]) == (full[0], full[1]) == (first[0], first[1])
    assert _errors(second[2]) == _errors(full[2])
    unreadable = len(_errors(full[2]))  # a file that could not be read is read again: its error is not kept
    assert _stats(first[2]) == (0, len(samples))
    assert _stats(second[2]) == (len(samples) - unreadable, unreadable)
    if output:
        assert len(json.loads(second[1])["sessions"]) > 100


@pytest.mark.slow
@pytest.mark.parametrize(
    "output",
    [
        ["scan", "--output-format", "sarif"],
        ["scan", "--output-format", "github"],
        ["scan", "--output-format", "junit"],
        ["report", "--markdown", "-"],
        ["report", "--html", "-"],
        ["report", "--markdown", "-", "--redact"],
    ],
    ids=["sarif", "github", "junit", "markdown", "html", "redacted"],
)
def test_every_output_from_the_cache_is_that_of_a_full_read(capsys, output):
    samples = _every_sample()
    _run(capsys, *output, *samples)
    cached = _run(capsys, *output, "--cache-stats", *samples)
    full = _run(capsys, *output, "--no-cache", *samples)
    assert (cached[0], _timeless(cached[1])) == (full[0], _timeless(full[1])), (cached[2], full[2])
    assert _stats(cached[2])[0] > 100


def test_a_scan_of_your_own_sessions_reads_none_of_them_the_second_time(empty_home, capsys):
    every_agent_s_session(empty_home)
    first = _run(capsys, "scan", "--json", "--cache-stats")
    second = _run(capsys, "scan", "--json", "--cache-stats")
    taken, read = _stats(second[2])
    assert (second[0], second[1], read) == (first[0], first[1], 0)
    assert taken == _stats(first[2])[1] > 10


def test_a_search_fills_the_cache_and_a_scan_still_lets_a_search_find_words(empty_home, capsys):
    placed = every_agent_s_session(empty_home)
    _run(capsys, "search", "notes")
    cached = _run(capsys, "scan", "--json", "--cache-stats")
    assert _stats(cached[2])[1] == 0  # what the search read, the scan takes
    assert cached[1] == _run(capsys, "scan", "--json", "--no-cache")[1]
    claude = placed["Claude Code"]
    claude.write_text(claude.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert _stats(_run(capsys, "scan", "--json", "--cache-stats")[2])[1] == 1  # kept by the scan alone
    code, out, err = _run(capsys, "search", "Thursday", "--agent", "claude code", "--json")
    assert code == 0, err
    assert {hit["path"] for hit in json.loads(out)["hits"]} == {str(claude)}


def test_an_appended_session_is_read_again_and_shows_its_new_finding(tmp_path, capsys):
    session = Path(shutil.copy(TOOL_SAMPLES / "claude-code.jsonl", tmp_path / "session.jsonl"))
    before = json.loads(_run(capsys, "scan", "--json", str(session))[1])
    last = json.loads(session.read_text(encoding="utf-8").splitlines()[-1])
    record = {
        "type": "assistant",
        "uuid": "0c6d1c39-8f9b-4d55-9df4-2f0f3c0e2a11",
        "parentUuid": last.get("uuid"),
        "sessionId": last.get("sessionId"),
        "timestamp": "2026-11-24T03:20:00.000Z",
        "message": {
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": [{"type": "text", "text": '<tool_call>{"name": "Read", "arguments": {}}</tool_call>'}],
        },
    }
    with session.open("a", encoding="utf-8") as file:
        file.write(json.dumps(record) + "\n")
    code, out, err = _run(capsys, "scan", "--json", "--cache-stats", str(session))
    after = json.loads(out)
    assert _stats(err) == (0, 1)
    assert after["summary"]["findings"] > before["summary"]["findings"]
    assert after["sessions"][-1]["turns"] == before["sessions"][-1]["turns"] + 1
    assert out == _run(capsys, "scan", "--json", "--no-cache", str(session))[1]


@pytest.mark.parametrize("shape", ["openhands-conversation", "opencode-storage"])
def test_a_session_read_with_other_files_is_read_again_when_one_of_them_changes(tmp_path, capsys, shape):
    folder = Path(shutil.copytree(TOOL_SAMPLES / shape, tmp_path / shape))
    (session,) = [str(path) for path in (*folder.glob("base_state.json"), *folder.glob("session/*/ses_*.json"))]
    before = _run(capsys, "scan", "--json", session)[1]
    kind = "events" if shape.startswith("openhands") else "part"
    records = sorted(path for path in folder.rglob("*.json") if kind in path.parts)
    for record in records[len(records) // 2 :]:  # the later half of the conversation
        record.unlink()
    code, out, err = _run(capsys, "scan", "--json", "--cache-stats", session)
    assert _stats(err) == (0, 1)
    assert out != before and out == _run(capsys, "scan", "--json", "--no-cache", session)[1]
    assert _stats(_run(capsys, "scan", "--json", "--cache-stats", session)[2]) == (1, 0)


def test_a_history_whose_new_rows_are_in_its_wal_file_is_read_again(tmp_path, capsys):
    history = Path(shutil.copy(SESSIONS / "rails-chat.rubyllm.db", tmp_path / "chat.db"))
    with sqlite3.connect(history) as connection:
        connection.execute("PRAGMA journal_mode=WAL")
    before = _run(capsys, "scan", "--json", str(history))[1]
    writer = sqlite3.connect(history)
    try:
        writer.execute("PRAGMA wal_autocheckpoint=0")  # the new row stays in chat.db-wal
        writer.execute(
            'UPDATE messages SET content = content || \' <tool_call>{"name": "lookup"}</tool_call>\' '
            "WHERE id = (SELECT max(id) FROM messages WHERE role = 'assistant')"
        )
        writer.commit()
        status = history.stat()
        code, out, err = _run(capsys, "scan", "--json", "--cache-stats", str(history))
        assert history.stat().st_mtime_ns == status.st_mtime_ns  # the database's own file is as it was
        assert _stats(err) == (0, 1)
        assert out != before and out == _run(capsys, "scan", "--json", "--no-cache", str(history))[1]
    finally:
        writer.close()


def test_a_removed_session_leaves_the_scan(empty_home, capsys):
    placed = every_agent_s_session(empty_home)
    _run(capsys, "scan", "--json")
    placed["Gemini CLI"].unlink()
    code, out, err = _run(capsys, "scan", "--json", "--cache-stats")
    assert str(placed["Gemini CLI"]) not in {session["path"] for session in json.loads(out)["sessions"]}
    assert _stats(err)[1] == 0
    assert out == _run(capsys, "scan", "--json", "--no-cache")[1]


def test_another_detection_option_reads_the_file_again(tmp_path, capsys):
    session = str(SESSIONS / "memory-agent.openai.json")
    tools = str(SESSIONS / "tools" / "memory-agent.json")
    assert _run(capsys, "scan", "--json", session)[0] == 1
    with_tools = _run(capsys, "scan", "--json", "--cache-stats", "--tools", tools, session)
    assert with_tools[0] == 1 and _stats(with_tools[2]) == (0, 1)
    assert with_tools[1] == _run(capsys, "scan", "--json", "--no-cache", "--tools", tools, session)[1]
    again = _run(capsys, "scan", "--json", "--cache-stats", "--tools", tools, session)
    assert (again[1], _stats(again[2])) == (with_tools[1], (1, 0))  # kept under its own key
    as_format = _run(capsys, "scan", "--json", "--cache-stats", "--format", "openai", session)
    assert _stats(as_format[2]) == (0, 1)
    assert as_format[1] == _run(capsys, "scan", "--json", "--no-cache", "--format", "openai", session)[1]


def test_one_session_asked_for_is_read(capsys):
    session = str(TOOL_SAMPLES / "claude-code.jsonl")
    _run(capsys, "scan", "--json", session)
    identifier = json.loads(_run(capsys, "scan", "--json", session)[1])["sessions"][0]["session_id"]
    code, out, err = _run(capsys, "scan", "--json", "--cache-stats", "--session", identifier, session)
    assert "(the cache was not used)" in err and _stats(err) == (0, 1)
    assert out == _run(capsys, "scan", "--json", "--no-cache", "--session", identifier, session)[1]


def test_another_inspector_reads_every_file_again(capsys, monkeypatch):
    session = str(TOOL_SAMPLES / "codex.rollout.jsonl")
    _run(capsys, "scan", "--json", session)
    monkeypatch.setattr(inspector, "__version__", "99.0.0")
    _inspector_stamp.cache_clear()
    try:
        assert _stats(_run(capsys, "scan", "--json", "--cache-stats", session)[2]) == (0, 1)
    finally:
        _inspector_stamp.cache_clear()


def test_the_same_file_by_another_name_is_read_again(capsys, monkeypatch):
    monkeypatch.chdir(TOOL_SAMPLES)
    _run(capsys, "scan", "--json", str(TOOL_SAMPLES / "codex.rollout.jsonl"))
    code, out, err = _run(capsys, "scan", "--json", "--cache-stats", "codex.rollout.jsonl")
    assert _stats(err) == (0, 1)
    assert json.loads(out)["sessions"][0]["path"] == "codex.rollout.jsonl"


@pytest.mark.parametrize(
    "garbage",
    [b"this is not a database at all" * 100, b"SQLite format 3\x00" + b"\xff" * 4080],
    ids=["text", "a broken header"],
)
def test_a_broken_index_gives_the_answer_of_a_full_read(capsys, garbage):
    session = str(TOOL_SAMPLES / "gemini-cli.session.jsonl")
    _run(capsys, "scan", "--json", session)
    index = index_path()
    for suffix in ("-wal", "-shm"):
        Path(f"{index}{suffix}").unlink(missing_ok=True)
    index.write_bytes(garbage)
    code, out, err = _run(capsys, "scan", "--json", session)
    assert (code, out) == _run(capsys, "scan", "--json", "--no-cache", session)[:2]
    assert len(err.splitlines()) <= 1 and "Traceback" not in err


def test_a_damaged_index_gives_the_answer_of_a_full_read_and_one_line(capsys):
    session = str(TOOL_SAMPLES / "gemini-cli.session.jsonl")
    _run(capsys, "scan", "--json", session)
    connection = sqlite3.connect(index_path())
    connection.execute("UPDATE summaries SET data = x'00ff00ff'")
    connection.commit()
    connection.close()
    code, out, err = _run(capsys, "scan", "--json", "--cache-stats", session)
    assert (code, out) == _run(capsys, "scan", "--json", "--no-cache", session)[:2]
    assert _stats(err) == (0, 1)
    assert _stats(_run(capsys, "scan", "--json", "--cache-stats", session)[2]) == (1, 0)  # kept again, whole


def test_a_state_folder_that_cannot_be_made_gives_the_answer_of_a_full_read_and_one_line(tmp_path, capsys, monkeypatch):
    blocked = tmp_path / "state"
    blocked.write_text("a file where the state folder would be", encoding="utf-8")
    monkeypatch.setenv("XDG_STATE_HOME", str(blocked))
    session = str(TOOL_SAMPLES / "codex.rollout.jsonl")
    code, out, err = _run(capsys, "scan", "--json", session)
    assert (code, out) == _run(capsys, "scan", "--json", "--no-cache", session)[:2]
    (line,) = err.splitlines()
    assert "cache" in line and "Traceback" not in err


def test_a_locked_index_gives_the_answer_of_a_full_read_and_one_line(capsys, monkeypatch):
    monkeypatch.setattr("inspector.search.scan_cache.WAIT_SECONDS", 0.1)
    session = str(TOOL_SAMPLES / "qwen-code.jsonl")
    _run(capsys, "scan", "--json", "--no-cache", session)
    main(["search", "notes"])  # makes the index
    capsys.readouterr()
    other = sqlite3.connect(index_path(), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process writing, for longer than the scan waits
    try:
        code, out, err = _run(capsys, "scan", "--json", session)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert (code, out) == _run(capsys, "scan", "--json", "--no-cache", session)[:2]
    (line,) = err.splitlines()
    assert "cache" in line and "locked" in line


def test_two_scans_at_once_both_answer_and_keep_what_they_read(empty_home, capsys):
    samples = _every_sample()[:12]
    command = [sys.executable, "-m", "inspector", "scan", "--json", *samples]
    runs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    answers = [run.communicate(timeout=300) for run in runs]
    full = _run(capsys, "scan", "--json", "--no-cache", *samples)
    assert [out.decode() for out, _ in answers] == [full[1], full[1]]
    assert [err for _, err in answers if b"cache" in err or b"Traceback" in err] == []
    code, out, err = _run(capsys, "scan", "--json", "--cache-stats", *samples)
    assert out == full[1] and _stats(err) == (len(samples) - len(_errors(full[2])), len(_errors(full[2])))
