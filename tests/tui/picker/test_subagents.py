"""`inspector` with no path, on a temporary home folder holding a Claude Code session that ran a
subagent (the files Claude Code 2.1.332 wrote): the session's row counts the subagent's turns and
its fake result, read or taken from the index; Enter lists the session and the subagent's, and
opens either; Esc comes back. The session file opened straight away says it ran a subagent, and Esc
lists both (a session followed, as soon as a subagent starts); the project's folder opened lists the
session, then its subagent's; a copy of the same files kept where no agent keeps its sessions names
none."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from inspector.cli.main import main
from inspector.tui.app import InspectorApp
from inspector.tui.picker.found import FoundPicker, SessionAndSubagents
from inspector.tui.picker.screen import PickerScreen
from inspector.tui.review.screen import ReviewScreen
from tests.helpers.pilot import play, press, rows, settle, until
from tests.helpers.samples import TOOL_SAMPLES

pytestmark = pytest.mark.slow  # drives the app with Pilot

SESSION = "96771fa5-273c-4ee7-9ace-b7f1e823acb7"
SUBAGENT = Path(SESSION) / "subagents" / "agent-a2e34ec84a76856d1.jsonl"
BOTH_ROWS = [  # name, id, findings, turns: the session's (the fake handed back), its subagent's (the fake)
    [f"{SESSION}.jsonl", SESSION, "1 relayed-fake-result", "6"],
    [SUBAGENT.name, f"{SESSION}/agent-a2e34ec84a76856d1", "1 result-prefix", "2"],
]
NOTICE = "This session ran 1 subagent, whose transcript is kept beside it: Esc lists it with the session"


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
        assert [row[3:5] for row in rows(picker.query_one(DataTable))] == [
            ["8", "1 relayed-fake-result, 1 result-prefix"]
        ]

        await pilot.press("enter")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        listed = pilot.app.screen
        assert isinstance(listed, SessionAndSubagents)
        assert str(listed.query_one("#title", Static).visual).startswith(
            f"{SESSION}.jsonl and its 1 subagent · Enter opens one, Esc goes back to your sessions"
        )
        assert [row[:4] for row in rows(listed.query_one(DataTable))] == BOTH_ROWS

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


def test_the_session_file_opened_straight_away_says_it_ran_a_subagent_and_esc_lists_both(empty_home: Path):
    project = _project(empty_home)
    session = project / f"{SESSION}.jsonl"

    async def scenario(pilot: Pilot) -> None:
        review = pilot.app.screen
        assert isinstance(review, ReviewScreen) and review.path == session
        await until(pilot, lambda: pilot.app._notifications, "the notice of the subagent")
        assert [note.message for note in pilot.app._notifications] == [NOTICE]
        await press(pilot, "escape")
        await settle(pilot)
        listed = pilot.app.screen
        assert isinstance(listed, PickerScreen)
        assert str(listed.query_one("#title", Static).visual).startswith(
            f"{SESSION}.jsonl and its 1 subagent · Enter opens one"
        )
        await _both_listed_and_the_subagent_opens(pilot, project)

    play(InspectorApp(session), scenario, size=(160, 40), settled=True, notifications=True)


def test_the_project_folder_opened_lists_each_session_followed_by_its_subagents(empty_home: Path):
    project = _project(empty_home)

    async def scenario(pilot: Pilot) -> None:
        assert isinstance(pilot.app.screen, PickerScreen)
        await _both_listed_and_the_subagent_opens(pilot, project)

    play(InspectorApp(project), scenario, size=(160, 40), settled=True)


async def _both_listed_and_the_subagent_opens(pilot: Pilot, project: Path) -> None:
    """The list on screen holds the session and its subagent; Enter on the second opens the
    subagent's transcript with its fake result."""
    assert [row[:4] for row in rows(pilot.app.screen.query_one(DataTable))] == BOTH_ROWS
    await press(pilot, "down", "enter")
    await settle(pilot)
    opened = pilot.app.screen
    assert isinstance(opened, ReviewScreen) and opened.path == project / SUBAGENT
    assert [finding.kind for finding in opened.review.findings(0)] == ["result-prefix"]


def test_a_copy_kept_outside_its_agent_s_folder_names_no_subagent(empty_home: Path, tmp_path: Path):
    copy = tmp_path / "copy"
    shutil.copytree(TOOL_SAMPLES / "claude-code-subagent", copy)  # the same layout, where no agent keeps it

    async def scenario(pilot: Pilot) -> None:
        assert isinstance(pilot.app.screen, ReviewScreen)
        await until(pilot, lambda: pilot.app.subagents is not None, "the look for the session's subagents")
        await settle(pilot)
        assert not any("subagent" in note.message for note in pilot.app._notifications)
        await press(pilot, "escape")
        await settle(pilot)
        assert [row[0] for row in rows(pilot.app.screen.query_one(DataTable))] == [f"{SESSION}.jsonl"]

    play(InspectorApp(copy / f"{SESSION}.jsonl"), scenario, size=(160, 40), settled=True, notifications=True)


def test_a_session_followed_says_so_when_a_subagent_starts_and_esc_lists_it(empty_home: Path):
    project = empty_home / ".claude" / "projects" / "-tmp-cc-work"
    project.mkdir(parents=True)
    session = project / f"{SESSION}.jsonl"
    shutil.copyfile(TOOL_SAMPLES / "claude-code-subagent" / f"{SESSION}.jsonl", session)

    async def scenario(pilot: Pilot) -> None:
        app = pilot.app  # (no waiting for its workers: the file's follower runs until the app stops)
        await until(pilot, lambda: app.subagents is not None and not app.subagents.looking, "a first look")
        assert not any("subagent" in note.message for note in app._notifications)
        (project / SUBAGENT).parent.mkdir(parents=True)  # the subagent starts: its transcript is written
        shutil.copyfile(TOOL_SAMPLES / "claude-code-subagent" / SUBAGENT, project / SUBAGENT)
        await until(pilot, lambda: NOTICE in [note.message for note in app._notifications], "the notice")
        await press(pilot, "escape")
        await until(pilot, lambda: isinstance(app.screen, PickerScreen), "the list")
        assert [row[0] for row in rows(app.screen.query_one(DataTable))] == [session.name, SUBAGENT.name]

    play(InspectorApp(session, follow=True), scenario, size=(160, 40), notifications=True)
