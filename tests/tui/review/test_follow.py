"""`inspector --follow PATH`: the review screen grows as another process appends to the session
file, on the real Claude Code transcript written out as the agent wrote it: the new turns listed
and scanned, the new findings announced, the list pinned to the last turn unless the person moved
away from it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

import inspector
from inspector.cli.main import main
from inspector.sources.discovery import discover
from inspector.tui.app import InspectorApp
from inspector.tui.review.screen import ReviewScreen
from inspector.tui.review.turn_list import TurnList
from tests.helpers.app import reviewed
from tests.helpers.pilot import play, until
from tests.helpers.samples import TOOL_SAMPLES

SAMPLE = TOOL_SAMPLES / "claude-code.jsonl"
LINES = SAMPLE.read_bytes().splitlines(keepends=True)
FIRST = 8  # lines written before the app opens: two turns, one finding (a fake result)


def started(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "transcript.jsonl"
    path.write_bytes(b"".join(LINES[:FIRST]))
    return path


def append_from_another_process(path: Path) -> None:
    """The rest of the transcript appended by another process, a line at a time, as the agent writes."""
    script = "import sys\nwith open(sys.argv[1], 'ab', buffering=0) as out:\n    for line in sys.stdin.buffer: out.write(line)\n"
    subprocess.run([sys.executable, "-c", script, str(path)], input=b"".join(LINES[FIRST:]), check=True)


def test_appended_turns_are_listed_scanned_and_announced_with_the_list_pinned_to_the_end(tmp_path: Path):
    path = started(tmp_path)
    [whole] = inspector.scan_file(SAMPLE)
    app = InspectorApp(path, follow=True)

    async def scenario(pilot: Pilot) -> None:
        await reviewed(pilot)
        turns = pilot.app.screen.query_one(TurnList)
        first = pilot.app.screen.session.turns
        await until(pilot, lambda: turns.position == first[-1].position, "the list at the last of the first turns")
        append_from_another_process(path)
        await until(pilot, lambda: len(pilot.app.screen.session.turns) == len(whole.session.turns), "the new turns")
        review = pilot.app.screen.review
        expected = [(f.turn, f.kind) for f in whole.findings]
        await until(pilot, lambda: [(f.turn, f.kind) for f in review.findings(0)] == expected, "the new turns scanned")
        # pinned: the last turn written
        await until(pilot, lambda: turns.position == whole.session.turns[-1].position, "the list at the last turn")
        bar = str(pilot.app.screen.query_one("#bar", Static).visual)
        assert bar.endswith(" · following")  # said while the file is followed, not only in a passing notice
        announced = "5 new findings in the turns just written: tool-markup, malformed-arguments, tool-error"
        await until(
            pilot,
            lambda: announced in [note.message for note in pilot.app._notifications],
            "the new findings announced",
        )

    play(app, scenario, notifications=True)


def test_a_turn_the_person_moved_to_stays_selected_as_the_file_grows(tmp_path: Path):
    path = started(tmp_path)
    app = InspectorApp(path, follow=True)

    async def scenario(pilot: Pilot) -> None:
        await reviewed(pilot)
        turns = pilot.app.screen.query_one(TurnList)
        first = pilot.app.screen.session.turns
        await until(pilot, lambda: turns.position == first[-1].position, "the list at its last turn")
        turns.select_position(first[0].position)
        append_from_another_process(path)
        await until(pilot, lambda: len(pilot.app.screen.session.turns) > len(first), "the new turns")
        assert turns.position == first[0].position

    play(app, scenario, notifications=True)


def test_follow_takes_one_session_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    assert main(["--follow", str(tmp_path)]) == 2
    assert capsys.readouterr().err == "inspector: error: --follow follows one session file: give its path\n"


def test_w_in_the_list_of_your_sessions_follows_the_highlighted_one(empty_home: Path):
    path = started(empty_home / ".claude" / "projects" / "-tmp-cc-work")
    app = InspectorApp(None, found=discover(empty_home, {}))

    async def scenario(pilot: Pilot) -> None:
        await until(pilot, lambda: pilot.app.screen.table.row_count == 1, "the session listed")
        await pilot.press("w")
        await until(pilot, lambda: isinstance(pilot.app.screen, ReviewScreen), "the review screen")
        await reviewed(pilot)
        first = len(pilot.app.screen.session.turns)
        append_from_another_process(path)
        await until(pilot, lambda: len(pilot.app.screen.session.turns) > first, "the turns appended")

    play(app, scenario, notifications=True)
