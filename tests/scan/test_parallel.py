"""Scanning a history on several processes (`inspector scan --jobs N`): the same report as a scan
in one process, for every way a schema groups its conversations, errors included."""

from __future__ import annotations

import json
import multiprocessing
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.errors import InspectorError
from inspector.scan.parallel import ScanRequest, scan_range, scan_summaries, split_evenly
from inspector.scan.scanner import iter_scan
from inspector.scan.summary import summarise
from inspector.sources import open_source
from tests.helpers.grouped_histories import (
    TURNS,
    llm_legacy_history,
    open_webui_history,
    rubyllm_history,
    table_history,
)
from tests.helpers.rubyllm import SEED_000_CHATS, build_rubyllm


def _copies(chats: list, times: int) -> list:
    """`times` copies of `chats`, each with its own call ids (RubyLLM keeps them unique)."""

    def renamed(chat: list, copy: int) -> list:
        return [
            (
                role,
                content,
                [(f"{call_id}_{copy}", name, arguments) for call_id, name, arguments in calls]
                if role == "assistant" and calls
                else f"{calls}_{copy}"
                if calls
                else calls,
            )
            for role, content, calls in chat
        ]

    return [renamed(chat, copy) for copy in range(times) for chat in chats]


def _report(capsys, *arguments: str) -> tuple[int, str, str]:
    code = main(["scan", *arguments])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _table_options(table: dict) -> list[str]:
    if not table:
        return []
    return ["--table", table["table"], "--map", ",".join(f"{k}={v}" for k, v in table["mapping"].items())]


@pytest.mark.parametrize(
    ("build", "table"),
    [(rubyllm_history, {}), (table_history, TURNS), (open_webui_history, {}), (llm_legacy_history, {})],
)
def test_three_processes_write_the_report_of_one(tmp_path, capsys, build, table):
    path = str(build(tmp_path / "history.db"))
    options = _table_options(table)
    alone = _report(capsys, "--json", "--jobs", "1", *options, path)
    shared = _report(capsys, "--json", "--jobs", "3", *options, path)
    assert shared == alone
    report = json.loads(alone[1])
    assert len(report["sessions"]) >= 3 and report["summary"]["findings"] > 0
    assert _report(capsys, "--jobs", "3", *options, path) == _report(capsys, "--jobs", "1", *options, path)


def test_findings_in_every_range_come_back_in_order(tmp_path, capsys):
    path = build_rubyllm(tmp_path / "history.db", _copies(SEED_000_CHATS, 5))  # 20 chats, 3 with findings in each 4
    code, out, _ = _report(capsys, "--json", "--jobs", "4", str(path))
    assert code == 1
    sessions = json.loads(out)["sessions"]
    assert [s["session_id"] for s in sessions] == [str(n) for n in range(1, 21)]
    assert [bool(s["findings"]) for s in sessions] == [True, True, True, False] * 5


def _corrupt_the_last_chat(path: Path) -> Path:
    """A history whose last chat has a long reply stored on overflow pages, the first of which
    points nowhere: SQLite fails only when it reads that reply."""
    chats = _copies(SEED_000_CHATS, 3) + [[("user", "Tell me a long story.", None), ("assistant", "Q" * 30000, None)]]
    build_rubyllm(path, chats)
    data = bytearray(path.read_bytes())
    size = int.from_bytes(data[16:18], "big")  # the page size, from the file's header
    pages = [start for start in range(0, len(data), size) if data[start + 4 : start + 64] == b"Q" * 60]
    assert pages, "the long reply should spill onto overflow pages"
    data[pages[0] : pages[0] + 4] = b"\x7f\xff\xff\xff"  # the next overflow page: far past the end of the file
    path.write_bytes(bytes(data))
    return path


def test_an_error_in_a_later_range_keeps_what_was_read_before_it(tmp_path, capsys):
    path = str(_corrupt_the_last_chat(tmp_path / "history.db"))
    alone = _report(capsys, "--json", "--jobs", "1", path)
    shared = _report(capsys, "--json", "--jobs", "2", path)
    assert shared == alone
    code, out, err = alone
    report = json.loads(out)
    assert code == 2 and err.count("\n") == 1 and "not a readable SQLite database" in err
    assert report["errors"] == [err.removeprefix("inspector: error: ").strip()]
    # every chat before the broken one (but for the one SQLite may read ahead), though the worker
    # scanning the second half stopped at it
    assert [s["session_id"] for s in report["sessions"]][:11] == [str(n) for n in range(1, 12)]
    assert "13" not in {s["session_id"] for s in report["sessions"]}


def test_a_fresh_interpreter_scans_a_range_as_this_process_does(tmp_path):
    """Where workers are not forked (macOS, Windows), each starts a new interpreter."""
    path = build_rubyllm(tmp_path / "history.db", _copies(SEED_000_CHATS, 2))
    request = ScanRequest(path)
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        summaries, error = pool.apply(scan_range, (request, 2, 3))
    expected = [summarise(result) for result in list(iter_scan(open_source(path)))[2:5]]
    assert error is None
    assert [(s.session_id, s.turn_count, [(f.turn, f.kind) for f in s.findings]) for s in summaries] == [
        (s.session_id, s.turn_count, [(f.turn, f.kind) for f in s.findings]) for s in expected
    ]
    assert all(s.flagged_turns.keys() == e.flagged_turns.keys() for s, e in zip(summaries, expected))


def test_one_session_and_bad_job_counts(tmp_path, capsys):
    path = str(build_rubyllm(tmp_path / "history.db"))
    code, out, _ = _report(capsys, "--json", "--jobs", "3", "--session", "2", path)
    assert code == 1 and [s["session_id"] for s in json.loads(out)["sessions"]] == ["2"]
    code, out, err = _report(capsys, "--jobs", "0", path)
    assert code == 2 and err == "inspector: error: --jobs: 0 is not a positive number of processes\n"
    # checked once, before any file is read: one line, no report, whatever else is given
    for options in (["--json"], ["--session", "2"], []):
        code, out, err = _report(capsys, "--jobs", "-1", *options, path, path)
        assert (code, out) == (2, "") and err == "inspector: error: --jobs: -1 is not a positive number of processes\n"


@pytest.mark.parametrize(
    ("sizes", "parts", "expected"),
    [
        ([10] * 8, 2, [(0, 4), (4, 4)]),
        ([100, 1, 1, 1, 1], 2, [(0, 1), (1, 4)]),
        ([5, 5, 5], 4, [(0, 1), (1, 1), (2, 1)]),
        ([7], 3, [(0, 1)]),
        ([], 2, []),
        ([1, 2, 3, 4, 5, 6], 3, [(0, 3), (3, 2), (5, 1)]),
    ],
)
def test_ranges_cover_every_conversation_with_about_equal_messages(sizes, parts, expected):
    assert split_evenly(sizes, parts) == expected


def _blocked_writing(pid: int) -> bool:
    """Whether process `pid` waits for room in a pipe (Linux's /proc says; others skip the test)."""
    try:
        return "pipe_write" in Path(f"/proc/{pid}/wchan").read_text()
    except OSError:
        pytest.skip("no /proc/PID/wchan here to see a process wait")


@pytest.mark.parametrize("when", ["at once", "in the middle of its answer"])
def test_a_worker_that_dies_ends_the_scan_with_an_error_instead_of_a_wait(tmp_path, when):
    """A worker killed (for lack of memory, say) before it has answered in full: what this process
    scanned is kept, then one error names the conversations lost; nothing waits for ever, no process is left."""
    path = build_rubyllm(tmp_path / "history.db", _copies(SEED_000_CHATS, 200))  # 800 chats
    assert len(pickle.dumps(scan_range(ScanRequest(path), 400, 400))) > 2 * 2**16  # more than a pipe holds
    summaries = scan_summaries(ScanRequest(path), jobs=2)
    kept = [next(summaries)]  # this process has scanned its half; the worker waits for it to read its answer
    (worker,) = multiprocessing.active_children()
    if when == "in the middle of its answer":
        give_up = time.monotonic() + 120  # a guard against a hang, not a measure of speed
        while not _blocked_writing(worker.pid):  # a pipe's worth is written, the rest waits
            assert worker.is_alive() and time.monotonic() < give_up, "the worker never waited to write its answer"
            worker.join(0.01)
    os.kill(worker.pid, signal.SIGKILL)
    with pytest.raises(InspectorError) as raised:
        kept.extend(summaries)
    assert str(raised.value) == (
        f"{path}: the process scanning conversations 401 to 800 was killed by signal 9; try fewer --jobs"
    )
    assert [summary.session_id for summary in kept] == [str(n) for n in range(1, 401)]
    assert multiprocessing.active_children() == []


def test_an_empty_history_says_it_has_no_sessions(tmp_path, capsys):
    path = str(build_rubyllm(tmp_path / "history.db", []))
    for jobs in ("1", "2"):
        assert _report(capsys, "--jobs", jobs, path) == (0, "0 sessions, 0 turns, 0 findings\n", "")
        code, out, _ = _report(capsys, "--json", "--jobs", jobs, path)
        assert code == 0 and json.loads(out)["summary"] == {"sessions": 0, "turns": 0, "findings": 0, "by_kind": {}}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_session_asked_of_a_file_that_cannot_be_read_gets_the_read_error_alone(tmp_path, capsys, jobs):
    broken = tmp_path / "broken.json"
    broken.write_text('{"messages": [')
    code, out, err = _report(capsys, "--jobs", jobs, "--session", "7", str(broken))
    assert (code, out) == (2, "") and err.count("\n") == 1 and "no session" not in err
    code, out, _ = _report(capsys, "--json", "--jobs", jobs, "--session", "7", str(broken))
    assert code == 2 and json.loads(out)["errors"] == [err.removeprefix("inspector: error: ").strip()]


_SCAN_THEN_WAIT = """
import multiprocessing, sys
from pathlib import Path
from inspector.scan.parallel import ScanRequest, scan_summaries
summaries = scan_summaries(ScanRequest(Path(sys.argv[1])), jobs=2)
next(summaries)  # this process has scanned its half; the worker waits for it to read its answer
(worker,) = multiprocessing.active_children()
print(worker.pid, flush=True)
sys.stdin.read()  # until killed
"""


def _running(pid: int) -> bool:
    """Whether process `pid` is alive (a zombie that nobody reaps has ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except OSError:  # no such process
        return False


def test_a_worker_whose_scan_is_killed_ends_too(tmp_path):
    """`inspector scan` killed (SIGTERM, SIGKILL) while a worker waits to send its answer: the worker
    does not wait for ever."""
    if not Path("/proc/self").exists():
        pytest.skip("no /proc here to see whether a process still runs")
    path = build_rubyllm(tmp_path / "history.db", _copies(SEED_000_CHATS, 200))  # each half: more than a pipe holds
    scan = subprocess.Popen(
        [sys.executable, "-c", _SCAN_THEN_WAIT, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    worker = int(scan.stdout.readline())
    scan.kill()
    scan.wait()
    for _ in range(3000):  # at most about 30 s; it ends at once
        if not _running(worker):
            break
        time.sleep(0.01)
    still_running = _running(worker)
    if still_running:
        os.kill(worker, signal.SIGKILL)  # not left behind by a failing test
    assert not still_running


def test_a_process_running_other_threads_starts_its_workers_afresh(tmp_path, capsys):
    """Forking a process while another thread may hold a lock can leave the worker waiting for it
    for ever; the scan then starts fresh interpreters, with the same report."""
    path = str(build_rubyllm(tmp_path / "history.db", _copies(SEED_000_CHATS, 3)))
    release = threading.Event()
    holder = threading.Thread(target=release.wait)
    holder.start()
    try:
        shared = _report(capsys, "--json", "--jobs", "2", path)
    finally:
        release.set()
        holder.join()
    assert shared == _report(capsys, "--json", "--jobs", "1", path)
