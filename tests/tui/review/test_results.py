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


def _listed_results(pilot: Pilot) -> list[str]:
    """The lines the turn list shows for its first tool turns, after the role."""
    turns = pilot.app.screen.query_one(TurnList)
    rows = ["".join(segment.text for segment in strip) for strip in turns.render_lines(Region(0, 0, 120, 14))]
    return [row.split("tool", 1)[1].strip() for row in rows if row.split()[1:2] == ["tool"]]


def test_a_result_that_names_no_tool_is_listed_by_its_calls_tool_and_what_it_says(tmp_path: Path):
    """Goose keeps a result under its call's id alone: the list names the tool it answers
    ("result of developer__text_editor"), not the call's id; the id stays where the call kept no
    tool's name (Goose kept only the parser's error of the cut-off call). After the tool, the
    start of what the result says."""
    path = Path(shutil.copy(TOOL_SAMPLES / "goose.db", tmp_path / "goose.db"))

    async def scenario(pilot: Pilot) -> None:
        assert _listed_results(pilot) == [
            "• tool-error result of call_mock_broken_cut: -32602: Could not interpret tool use parameters for id c…",
            "result of developer__text_editor: 1: Meeting moved to Thursday. 2: Bring the draft.",
        ]

    play_loaded(InspectorApp(path, session="20260101_1"), scenario)


def test_a_claude_code_result_is_listed_with_what_it_says(tmp_path: Path):
    """Claude Code keeps each result as a block of a user message with no text of its own: its line
    says the tool and the start of what it returned (the error the call got, the file it read),
    white space folded."""
    path = Path(shutil.copy(TOOL_SAMPLES / "claude-code.jsonl", tmp_path / "claude-code.jsonl"))

    async def scenario(pilot: Pilot) -> None:
        listed = _listed_results(pilot)
        assert listed[0].startswith("• tool-error result of Read: <tool_use_error>InputValidationError: Read ")
        assert listed[2] == "result of Read: 1 Meeting moved to Thursday. 2 Bring the draft. 3"
        assert listed[3] == "result of Bash: hi"

    play_loaded(InspectorApp(path), scenario)
