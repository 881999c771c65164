"""The selected turn stays in view when the terminal is resized."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.pilot import Pilot

from inspector.tui.review.turn_list import TurnList
from tests.helpers.app import drive, selected
from tests.helpers.pilot import press
from tests.helpers.samples import SESSIONS

pytestmark = pytest.mark.slow  # drives the app with Pilot


def cursor_in_view(turns: TurnList) -> bool:
    top = turns.scroll_offset.y
    return top <= turns.cursor < top + turns.scrollable_content_region.height


def test_the_selected_turn_stays_visible_after_a_resize(tmp_path: Path):
    path = Path(shutil.copy(SESSIONS / "memory-agent.openai.json", tmp_path / "memory.json"))

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        turns = pilot.app.screen.query_one(TurnList)
        await press(pilot, "G")
        assert selected(pilot) == 34 and cursor_in_view(turns)
        for size in ((120, 16), (80, 12), (120, 40), (60, 10)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            await pilot.pause()
            assert cursor_in_view(turns), size
        await press(pilot, "g")
        await pilot.resize_terminal(120, 24)
        await pilot.pause()
        await pilot.pause()
        assert selected(pilot) == 0 and cursor_in_view(turns) and turns.scroll_offset.y == 0

    drive(path, scenario)
