"""`inspector` with no path, on a temporary home folder holding a Claude Code session that ran a
subagent (the files Claude Code 2.1.332 wrote): the session's row counts the subagent's turns and
its fake result, read or taken from the index; Enter lists the session and the subagent's, and
opens either; Esc comes back."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from inspector.cli.main import main
from inspector.tui.picker.found import FoundPicker, SessionAndSubagents
from inspector.tui.review.screen import ReviewScreen
from tests.helpers.pilot import play, rows
from tests.helpers.samples import TOOL_SAMPLES

pytestmark = pytest.mark.slow  # drives the app with Pilot

SESSION = "96771fa5-273c-4ee7-9ace-b7f1e823acb7"
SUBAGENT = Path(SESSION) / "subagents" / "agent-a2e34ec84a76856d1.jsonl"


def _project(home: Path) -> Path:
    """The project folder, as Claude Code leaves it: the session and its `subagents` folder."""
    project = home / ".claude" / "projects" / "-tmp-cc-work"
    shutil.copytree(TOOL_SAMPLES / "claude-code-subagent", project)
    return project


def test_a_session_s_row_counts_its_subagent_and_enter_lists_both(empty_home: Path, opened):
    project = _project(empty_home)
    assert main([]) == 0
    assert main([]) == 0  # again: the rows from the index the first one filled

    async def scenario(pilot: Pilot) -> None:
        picker = pilot.app.screen
        assert isinstance(picker, FoundPicker) and picker.scanned.is_set()
        # 6 turns of the session's own, 2 of its subagent's, whose reply holds a fake Write result
        assert [row[3:5] for row in rows(picker.query_one(DataTable))] == [["8", "1 result-prefix"]]

        await pilot.press("enter")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        listed = pilot.app.screen
        assert isinstance(listed, SessionAndSubagents)
        assert str(listed.query_one("#title", Static).visual).startswith(
            f"{SESSION}.jsonl and its 1 subagent · Enter opens one, Esc goes back to your sessions"
        )
        assert [row[:4] for row in rows(listed.query_one(DataTable))] == [
            [f"{SESSION}.jsonl", SESSION, "none", "6"],
            [SUBAGENT.name, f"{SESSION}/agent-a2e34ec84a76856d1", "1 result-prefix", "2"],
        ]

        await pilot.press("down", "enter")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        review = pilot.app.screen
        assert isinstance(review, ReviewScreen) and review.path == project / SUBAGENT
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is listed
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is picker

    for app in opened:
        play(app, scenario, size=(160, 40), settled=True)
