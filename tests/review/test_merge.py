"""Two inspectors on one session file: each save takes in the decisions the other saved instead of
writing over them, says so once, and when both decided the same finding differently the later
save wins and the notice counts the conflict. Real processes deciding at once lose nothing; a lock
held too long makes a save fail with one line, never hang."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from textual.pilot import Pilot

from inspector.model import ToolCall
from inspector.repair.execute import ExecutionResult
from inspector.review.review import Review
from inspector.review.review_file import APPROVED, PENDING, SKIPPED, review_path_for
from inspector.scan.scanner import scan_file
from inspector.sources import open_source
from inspector.support import file_lock
from tests.helpers.app import drive
from tests.helpers.pilot import press


def open_review(path: Path) -> Review:
    return Review.open(open_source(path), scan_file(path))


def statuses(path: Path) -> list[str]:
    review = open_review(path)
    return [review.status(0, index) for index in range(len(review.findings(0)))]


def test_two_reviews_of_one_file_both_save_and_nothing_is_lost(session_copy: Path):
    first, second = open_review(session_copy), open_review(session_copy)
    first.approve(0, 0)
    second.skip(0, 1)  # saved after the first's approval: takes it in
    assert second.status(0, 0) == APPROVED
    assert second.merge_notice() == "Merged 1 decision saved by another inspector"
    assert second.merge_notice() is None  # said once
    first.approve(0, 2)
    assert first.merge_notice() == "Merged 1 decision saved by another inspector"
    assert statuses(session_copy) == [APPROVED, SKIPPED, APPROVED, PENDING, PENDING, PENDING]
    assert [first.status(0, index) for index in range(3)] == [APPROVED, SKIPPED, APPROVED]


def test_both_deciding_one_finding_differently_keeps_the_later_and_counts_the_conflict(session_copy: Path):
    first, second = open_review(session_copy), open_review(session_copy)
    first.approve(0, 3)
    first.approve(0, 4)
    second.skip(0, 3)  # the later save: its skip wins
    assert second.merge_notice() == (
        "Merged 1 decision saved by another inspector; 1 conflict (a finding both "
        "decided differently): this one's decision, the later, was kept"
    )
    assert statuses(session_copy)[3:5] == [SKIPPED, APPROVED]
    first.approve(0, 3)  # and back: only a conflict this time
    assert first.merge_notice() == (
        "1 conflict (a finding both decided differently): this one's decision, the later, "
        "was kept over another inspector's"
    )
    assert statuses(session_copy)[3:5] == [APPROVED, APPROVED]


def test_an_undo_in_one_review_reaches_the_other(session_copy: Path):
    first, second = open_review(session_copy), open_review(session_copy)
    first.approve(0, 0)
    second.skip(0, 5)
    assert first.undo() == "undid approve result-prefix at turn 6"
    second.skip(0, 4)
    assert second.status(0, 0) == PENDING  # the undone approval is not brought back
    assert statuses(session_copy) == [PENDING, PENDING, PENDING, PENDING, SKIPPED, SKIPPED]


def test_an_export_takes_in_what_the_other_review_decided(session_copy: Path, tmp_path: Path):
    first, second = open_review(session_copy), open_review(session_copy)
    first.approve(0, 0)
    second.approve(0, 1)
    assert first.export(tmp_path / "out.json").applied == 2
    assert first.merge_notice() == "Merged 1 decision saved by another inspector"


def test_a_run_in_one_review_is_kept_when_the_other_decides_the_same_finding(session_copy: Path):
    first, second = open_review(session_copy), open_review(session_copy)
    run = ExecutionResult(
        "save-memory", None, 6, ToolCall("call_inspector_6_0", "save_memory", {}, {}, "recovered"), 0, {"saved": True}
    )
    first.record_execution(0, 0, [run])
    second.approve(0, 0)
    assert second.executions(0, 0) == (run,)
    assert open_review(session_copy).executions(0, 0) == (run,) and statuses(session_copy)[0] == APPROVED


DECIDER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from inspector.review.review import Review
    from inspector.scan.scanner import scan_file
    from inspector.sources import open_source

    path, mine, folder = Path(sys.argv[1]), [int(n) for n in sys.argv[2].split(",")], Path(sys.argv[3])
    review = Review.open(open_source(path), scan_file(path))
    (folder / f"ready-{mine[0]}").touch()
    deadline = time.monotonic() + 60
    while not (folder / "go").exists():
        if time.monotonic() > deadline:
            sys.exit("never told to go")
        time.sleep(0.01)
    for _ in range(6):
        for index in mine:
            review.skip(0, index)
            review.approve(0, index)
    assert review.unsaved_notice() is None, review.unsaved_notice()
""")


def test_two_processes_deciding_at_once_lose_nothing(session_copy: Path, tmp_path: Path):
    script = tmp_path / "decide.py"
    script.write_text(DECIDER)
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    processes = [
        subprocess.Popen(
            [sys.executable, str(script), str(session_copy), mine, str(tmp_path)],
            env=environment,
            stderr=subprocess.PIPE,
            text=True,
        )
        for mine in ("0,2,4", "1,3,5")
    ]
    try:
        deadline = time.monotonic() + 60
        while not ((tmp_path / "ready-0").exists() and (tmp_path / "ready-1").exists()):
            assert all(process.poll() is None for process in processes), [p.stderr.read() for p in processes]
            assert time.monotonic() < deadline, "the deciders never started"
            time.sleep(0.02)
        (tmp_path / "go").touch()
        for process in processes:
            _, errors = process.communicate(timeout=120)
            assert process.returncode == 0, errors
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait(timeout=10)
    assert statuses(session_copy) == [APPROVED] * 6
    saved = json.loads(review_path_for(session_copy).read_text())
    assert len(saved["decisions"]) == 6


def test_a_lock_held_too_long_fails_the_save_with_one_line_and_decisions_stay(
    session_copy: Path, monkeypatch: pytest.MonkeyPatch
):
    review = open_review(session_copy)
    review.approve(0, 0)
    monkeypatch.setattr(file_lock, "WAIT_SECONDS", 0.3)
    lock = review_path_for(session_copy).with_name(review_path_for(session_copy).name + ".lock")
    holder = os.open(lock, os.O_RDWR)
    try:
        fcntl.flock(holder, fcntl.LOCK_EX)  # another inspector, stuck in the middle of a save
        started = time.monotonic()
        review.skip(0, 1)
        assert time.monotonic() - started < 5
        notice = review.unsaved_notice()
        assert notice is not None and "held by another process for 0.3 s" in notice
        assert review.status(0, 1) == SKIPPED
    finally:
        os.close(holder)
    review.approve(0, 2)  # the lock is free again: everything is saved
    assert statuses(session_copy)[:3] == [APPROVED, SKIPPED, APPROVED]


def test_the_app_says_once_that_it_merged_the_other_inspectors_decisions(session_copy: Path):
    other = open_review(session_copy)  # another inspector, open on the same file

    async def decide(pilot: Pilot, notes: list[str]) -> None:
        other.skip(0, 3)
        other.skip(0, 5)
        await press(pilot, "a")
        review = pilot.app.screen.review
        assert [review.status(0, index) for index in range(6)] == [
            APPROVED,
            PENDING,
            PENDING,
            SKIPPED,
            PENDING,
            SKIPPED,
        ]
        assert notes == ["Merged 2 decisions saved by another inspector"]
        await press(pilot, "a")
        assert notes == ["Merged 2 decisions saved by another inspector"]  # once

    drive(session_copy, decide)
    assert statuses(session_copy) == [APPROVED, APPROVED, PENDING, SKIPPED, PENDING, SKIPPED]
