"""The export dialog says what the export will do ("2 approved fixes applied, 3 pending left as
they are, 1 skipped"), also of a history's other conversations, takes the width the terminal
gives it, and an export that fails opens it again as the person left it, saying why."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from textual.containers import Vertical
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, Static

from inspector.tui.app import InspectorApp
from inspector.tui.dialogs.export import ExportDialog
from tests.helpers.app import drive, reviewed
from tests.helpers.pilot import play, press, until
from tests.helpers.rubyllm import BOARD_CHATS, build_rubyllm
from tests.helpers.samples import SESSIONS

pytestmark = pytest.mark.slow  # drives the app with Pilot


def memory_agent(tmp_path: Path) -> Path:
    return Path(shutil.copy(SESSIONS / "memory-agent.openai.json", tmp_path / "memory-agent.openai.json"))


def plan(pilot: Pilot) -> str:
    return str(pilot.app.screen.query_one("#plan", Static).visual)


async def exported(pilot: Pilot) -> None:
    await press(pilot, "enter")
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def test_the_dialog_says_what_the_export_does_and_is_as_wide_as_the_terminal(tmp_path: Path):
    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        await press(pilot, "a", "a", "s", "x")  # turns 6 and 8 approved, the first finding of turn 14 skipped
        dialog = pilot.app.screen
        assert isinstance(dialog, ExportDialog)
        assert plan(pilot) == "2 approved fixes applied, 3 pending left as they are, 1 skipped."
        assert dialog.query_one(Vertical).size.width > 100  # of 120 columns

    drive(memory_agent(tmp_path), scenario)


def test_a_failed_export_opens_the_dialog_again_as_it_was_left(tmp_path: Path):
    missing = tmp_path / "no-such-folder" / "memory.openai.json"
    out = tmp_path / "memory.openai.json"

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        await press(pilot, "a", "x")
        await press(pilot, "tab", "tab", "space")  # as OpenAI
        pilot.app.screen.query_one("#path", Input).value = str(missing)
        await exported(pilot)
        dialog = pilot.app.screen
        assert isinstance(dialog, ExportDialog)  # open again, with the path typed and the box ticked
        assert dialog.query_one("#path", Input).value == str(missing)
        assert dialog.query_one("#openai", Checkbox).value and not dialog.query_one("#overwrite", Checkbox).value
        problem = str(dialog.query_one("#problem", Static).visual)
        assert problem.startswith(f"Export failed: {missing}") and "nothing was written" in problem
        assert plan(pilot) == "1 approved fix applied, 5 pending left as they are, 0 skipped."
        dialog.query_one("#path", Input).value = str(out)
        await pilot.pause()
        assert str(dialog.query_one("#problem", Static).visual) == ""  # a new path: the problem is gone
        await exported(pilot)
        assert not isinstance(pilot.app.screen, ExportDialog) and notes[-1].startswith(f"Wrote {out}")

    drive(memory_agent(tmp_path), scenario)
    assert "messages" in json.loads(out.read_text()) and not missing.parent.exists()


def test_the_plan_of_a_history_counts_the_other_conversations_approved_fixes(tmp_path: Path):
    database = build_rubyllm(tmp_path / "app.db", BOARD_CHATS)

    async def approve_the_result_prefix(pilot: Pilot) -> None:
        screen = await reviewed(pilot)
        await pilot.press("n", "n", "a")  # conversation 2: past its two tool-errors, its result-prefix
        await pilot.pause()
        assert screen.review.counts(0).approved == 1

    async def export_another(pilot: Pilot) -> None:
        await reviewed(pilot)
        await pilot.press("x")
        await until(pilot, lambda: isinstance(pilot.app.screen, ExportDialog), "the export dialog")
        assert plan(pilot) == (
            "This conversation: 0 approved fixes applied, 1 pending left as they are, 0 skipped; "
            "1 approved fix of 1 other conversation."
        )

    play(InspectorApp(database, session="2"), approve_the_result_prefix)
    play(InspectorApp(database, session="3"), export_another)
