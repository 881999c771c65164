"""The app lets go of a session when its review screen closes: opening many sessions in a row from
the picker holds one session's memory, not all of them (20 sessions of 50,000 messages
once took the app from 125 MB to 1.2 GB)."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable

from inspector.tui.app import InspectorApp
from inspector.tui.dialogs.confirm import Confirm
from inspector.tui.review.screen import ReviewScreen
from tests.helpers.pilot import play, until
from tests.helpers.samples import SESSIONS, copied

pytestmark = pytest.mark.slow  # drives the app with Pilot


def sessions_folder(tmp_path: Path) -> Path:
    """A folder of three session files with findings."""
    names = ("memory-agent.openai.json", "analyst-agent.openai.json", "support-agent.anthropic.json")
    return copied(names, SESSIONS, tmp_path / "sessions")


def test_a_closed_review_screen_releases_its_session_and_review(tmp_path: Path):
    released: list[weakref.ref] = []

    async def scenario(pilot: Pilot) -> None:
        table = pilot.app.screen.query_one(DataTable)
        await until(pilot, lambda: table.row_count == 3, "the picker to list 3 rows")
        for row in range(3):
            table.move_cursor(row=row)
            await pilot.press("enter")
            await until(
                pilot,
                lambda: isinstance(pilot.app.screen, ReviewScreen) and pilot.app.screen.review is not None,
                "the review screen to read its review",
            )
            screen = pilot.app.screen
            released.extend([weakref.ref(screen.session), weakref.ref(screen.review)])
            await pilot.press("a", "escape")  # a decision, so quitting has something to ask about
            await until(pilot, lambda: not isinstance(pilot.app.screen, ReviewScreen), "the review screen to close")
        gc.collect()
        assert [ref() for ref in released] == [None] * 6, "a closed screen's session or review is still held"
        await pilot.press("q")
        await until(pilot, lambda: isinstance(pilot.app.screen, Confirm), "the confirmation dialog")
        question = str(pilot.app.screen.query_one("#question").visual)
        assert all(name in question for name in ("memory-agent", "analyst-agent", "support-agent"))

    play(InspectorApp(sessions_folder(tmp_path)), scenario)
