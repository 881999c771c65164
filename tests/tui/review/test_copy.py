"""The copy menu (Y): the turn's text, the finding, the session file's path, the arguments; each
notice says the copy depends on the terminal accepting OSC 52."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.pilot import Pilot

from inspector.tui.dialogs.copy_menu import CopyMenu
from inspector.tui.review.screen import ReviewScreen
from tests.helpers.app import drive, selected
from tests.helpers.pilot import press
from tests.helpers.tools import SAVE_MEMORY

pytestmark = pytest.mark.slow  # drives the app with Pilot

OSC52 = " (if your terminal accepts OSC 52)"


def test_each_choice_copies_its_thing(session_copy: Path):
    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        screen = pilot.app.screen
        turn = screen.session.turn_at(6)
        assert selected(pilot) == 6
        await press(pilot, "Y")
        assert isinstance(pilot.app.screen, CopyMenu)
        await press(pilot, "t")
        assert pilot.app.screen is screen and pilot.app.clipboard == turn.text
        assert notes[-1] == "Copied the text of turn 6" + OSC52
        await press(pilot, "Y", "f")
        finding = screen.review.findings(0)[0]
        assert pilot.app.clipboard == f"turn 6 · result-prefix (error): {finding.message}"
        assert notes[-1] == "Copied the result-prefix finding of turn 6" + OSC52
        await press(pilot, "Y", "p")
        assert pilot.app.clipboard == str(session_copy.resolve())
        assert notes[-1] == "Copied the session file's path" + OSC52
        await press(pilot, "Y", "enter")  # the first choice: the arguments, as y copies them
        assert json.loads(pilot.app.clipboard)["memory_type"] == "journal"
        assert notes[-1] == "Copied the arguments of save_memory" + OSC52
        await press(pilot, "j", "Y", "f")
        assert selected(pilot) == 7 and notes[-1] == "Select a flagged turn first (n jumps to the next one)"
        pilot.app.copy_to_clipboard("kept")
        await press(pilot, "Y", "escape")
        assert pilot.app.screen is screen and pilot.app.clipboard == "kept"

    drive(session_copy, scenario)


def test_control_characters_in_the_text_are_copied_as_escapes(write_session):
    path = write_session(
        [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "Done \x1b]52;c;ZXZpbA==\x07 ok"}],
        [SAVE_MEMORY],
    )

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        assert isinstance(pilot.app.screen, ReviewScreen)
        await press(pilot, "G", "Y", "t")
        assert pilot.app.clipboard == "Done \\x1b]52;c;ZXZpbA==\\x07 ok"
        assert notes[-1] == "Copied the text of turn 1, control characters written as escapes" + OSC52
        await press(pilot, "g", "Y", "t")
        assert pilot.app.clipboard == "hi"

    drive(path, scenario)
