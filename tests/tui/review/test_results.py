"""A tool turn's results in the Original pane: what each result says, in full, with the error
marked, on the session Gemini CLI wrote (its read_file call failed, then ran)."""

from __future__ import annotations

import shutil
from pathlib import Path

from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import Static

from inspector.tui.app import InspectorApp
from inspector.tui.review.turn_list import TurnList
from tests.helpers.app import drive, finding_text, play_loaded, selected
from tests.helpers.pilot import press
from tests.helpers.samples import TOOL_SAMPLES

ERROR = "params must have required property 'file_path'"


def test_a_tool_result_shows_its_content_and_says_when_it_is_an_error(tmp_path: Path):
    path = Path(shutil.copy(TOOL_SAMPLES / "gemini-cli.session.jsonl", tmp_path / "gemini-cli.session.jsonl"))

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        original = pilot.app.screen.query_one("#original", Static)
        await press(pilot, "n", "n")
        assert selected(pilot) == 7 and "tool-error" in finding_text(pilot)
        shown = str(original.visual)
        assert "(no text)" not in shown
        assert shown.startswith("Error from read_file (call ") and f'"error": "{ERROR}"' in shown
        await press(pilot, "j", "j")  # the result of the call that ran: not flagged
        assert selected(pilot) == 10
        shown = str(original.visual)
        assert (
            shown.startswith("Result of read_file") and "Error" not in shown and "Meeting moved to Thursday." in shown
        )

    drive(path, scenario)


def test_a_result_that_names_no_tool_is_listed_by_its_calls_tool(tmp_path: Path):
    """Goose keeps a result under its call's id alone: the list names the tool it answers
    ("result of developer__text_editor"), not the call's id; the id stays where the call kept no
    tool's name (Goose kept only the parser's error of the cut-off call)."""
    path = Path(shutil.copy(TOOL_SAMPLES / "goose.db", tmp_path / "goose.db"))

    async def scenario(pilot: Pilot) -> None:
        turns = pilot.app.screen.query_one(TurnList)
        rows = ["".join(segment.text for segment in strip) for strip in turns.render_lines(Region(0, 0, 120, 10))]
        results = [row.split("tool", 1)[1].strip() for row in rows if row.split()[1:2] == ["tool"]]
        assert results == ["• tool-error result of call_mock_broken_cut", "result of developer__text_editor"]

    play_loaded(InspectorApp(path, session="20260101_1"), scenario)
