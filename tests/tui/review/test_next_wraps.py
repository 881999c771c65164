"""`n` and `N` wrap round the flagged turns both ways and say so, on the session Claude Code wrote
(flagged turns 5 to 17); `N` answers Shift+N however the terminal reports it."""

from __future__ import annotations

import shutil
from pathlib import Path

from textual.pilot import Pilot

from tests.helpers.app import drive, selected
from tests.helpers.pilot import press
from tests.helpers.samples import TOOL_SAMPLES


def test_previous_wraps_to_the_last_flagged_turn_as_next_wraps_to_the_first(tmp_path: Path):
    path = Path(shutil.copy(TOOL_SAMPLES / "claude-code.jsonl", tmp_path / "claude-code.jsonl"))

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        assert selected(pilot) == 5  # the first flagged turn
        await press(pilot, "shift+n")  # what a terminal reporting modifiers sends for N
        assert selected(pilot) == 17 and notes[-1] == "Wrapped round to the last flagged turn"
        await press(pilot, "n")
        assert selected(pilot) == 5 and notes[-1] == "Wrapped round to the first flagged turn"
        await press(pilot, "N")
        assert selected(pilot) == 17 and len(notes) == 3
        await press(pilot, "N")
        assert selected(pilot) == 16 and len(notes) == 3  # no wrap, nothing said

    drive(path, scenario)
