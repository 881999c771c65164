"""The review flow driven through the real app with Textual's Pilot, on a copy of a sample session."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from textual.command import CommandList
from textual.pilot import Pilot
from textual.widgets import Input, Static, TextArea

from inspector.errors import InspectorError
from inspector.review.review_file import review_path_for
from inspector.sources import load_sessions
from inspector.tui.app import InspectorApp
from inspector.tui.dialogs.confirm import Confirm
from inspector.tui.dialogs.export import ExportDialog
from inspector.tui.help import HelpScreen
from inspector.tui.review.editor import FixEditor
from inspector.tui.review.screen import ReviewScreen
from inspector.tui.review.turn_list import TurnList
from tests.helpers.app import drive, finding_text, selected
from tests.helpers.pilot import press, until
from tests.helpers.samples import SESSIONS
from tests.helpers.tools import SAVE_MEMORY

FLAGGED = [6, 8, 14, 20, 32]  # memory-agent's flagged turns; turn 14 has two findings


def test_whole_review_flow_ends_in_an_export_with_only_the_approved_fixes(session_copy: Path, tmp_path: Path):
    out = tmp_path / "out.openai.json"

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        screen = pilot.app.screen
        assert isinstance(screen, ReviewScreen)
        assert selected(pilot) == 6 and "result-prefix" in finding_text(pilot)  # first flagged turn shown
        await press(pilot, "j")
        assert selected(pilot) == 7 and "Nothing flagged" in str(screen.query_one("#repair", Static).visual)
        await press(pilot, "k", "n")
        assert selected(pilot) == 8
        await press(pilot, "N")
        assert selected(pilot) == 6

        await press(pilot, "a")  # approve turn 6, which moves on to turn 8
        assert screen.review.status(0, 0) == "approved" and selected(pilot) == 8

        await press(pilot, "e")  # edit turn 8: invalid JSON is refused, valid JSON is applied
        editor = pilot.app.screen
        assert isinstance(editor, FixEditor)
        arguments = editor.query_one("#call-0 TextArea", TextArea)
        arguments.load_text('{"memory_type": "journal", "content": ')
        await pilot.pause()  # the text area's change is handled before the apply key
        await press(pilot, "ctrl+s")
        assert pilot.app.screen is editor and "Not applied" in str(editor.query_one("#blocked", Static).visual)
        arguments.load_text('{"memory_type": "journal", "content": "Owned the missing entry; saved it for real."}')
        await pilot.pause()
        await press(pilot, "ctrl+s")
        assert pilot.app.screen is screen
        assert screen.review.status(0, 1) == "edited" and selected(pilot) == 14

        await press(pilot, "s")  # skip the first finding of turn 14, then undo it
        assert screen.review.status(0, 2) == "skipped"
        await press(pilot, "u")
        assert screen.review.status(0, 2) == "pending" and notes[-1].startswith("Undid skip")
        assert selected(pilot) == 14 and "finding 1 of 2" in finding_text(pilot)  # the finding undone, shown again

        await press(pilot, "A")  # approve every pending result-prefix, after confirming
        assert isinstance(pilot.app.screen, Confirm) and "4 pending result-prefix" in str(
            pilot.app.screen.query_one("#question", Static).visual
        )
        await press(pilot, "y")
        counts = screen.review.counts(0)
        assert (counts.approved, counts.edited, counts.pending) == (5, 1, 0)
        assert notes[-1].startswith("Approved 4 result-prefix findings")
        assert "approved 5" in str(screen.query_one("#bar", Static).visual)

        await press(pilot, "x")
        dialog = pilot.app.screen
        assert isinstance(dialog, ExportDialog)
        dialog.query_one("#path", Input).value = str(out)
        await press(pilot, "enter")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert notes[-1].startswith(f"Wrote {out}") and "6 fixes applied" in notes[-1]
        assert not screen.review.unexported

    drive(session_copy, scenario)
    original = load_sessions(session_copy)[0]
    exported = load_sessions(out)[0]
    texts = [turn.text for turn in exported.turns]
    assert not any(text.startswith("{success") for text in texts)  # every fake result stripped
    recovered = [
        call
        for turn in exported.turns
        for call in turn.tool_calls
        if call.arguments and call.arguments.get("content", "").startswith("Owned the missing entry")
    ]
    assert len(recovered) == 1  # the edited call, as edited
    assert len(exported.turns) > len(original.turns)
    assert (tmp_path / "out.openai.json.audit.ndjson").read_text().count("\n") == 6
    assert json.loads(session_copy.read_text()) == json.loads((SESSIONS / "memory-agent.openai.json").read_text())


def test_reopening_resumes_the_decisions_from_the_review_file(session_copy: Path):
    async def decide(pilot: Pilot, notes: list[str]) -> None:
        await press(pilot, "a", "s")

    drive(session_copy, decide)
    assert review_path_for(session_copy).exists()
    assert not session_copy.with_name("memory-agent.openai.json.review.json").exists()  # nothing beside the file

    async def check(pilot: Pilot, notes: list[str]) -> None:
        review = pilot.app.screen.review
        assert [review.status(0, i) for i in range(3)] == ["approved", "skipped", "pending"]
        assert "approved 1" in str(pilot.app.screen.query_one("#bar", Static).visual)

    drive(session_copy, check)


def test_quit_with_unexported_decisions_asks_first(session_copy: Path):
    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        await press(pilot, "a", "q")
        assert isinstance(pilot.app.screen, Confirm)
        await press(pilot, "n")  # stay
        assert isinstance(pilot.app.screen, ReviewScreen) and pilot.app.is_running
        await press(pilot, "q", "y")
        assert not pilot.app.is_running

    drive(session_copy, scenario)


def test_quit_without_decisions_does_not_ask(session_copy: Path):
    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        await press(pilot, "q")
        assert not pilot.app.is_running

    drive(session_copy, scenario)


def test_flagged_only_search_and_finding_cycling(session_copy: Path):
    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        turns = pilot.app.screen.query_one(TurnList)
        await press(pilot, "f")
        assert turns.flagged_only and selected(pilot) == 6
        await press(pilot, "j", "j")
        assert selected(pilot) == 14  # only flagged turns are listed
        assert "finding 1 of 2" in finding_text(pilot)
        await press(pilot, "right_square_bracket")
        assert "finding 2 of 2" in finding_text(pilot)
        await press(pilot, "slash")  # still listing flagged turns only
        await pilot.press(*"canal")
        await press(pilot, "enter")
        first = selected(pilot)
        assert "canal" in pilot.app.screen.session.turn_at(first).text.lower()
        assert not turns.flagged_only and "flagged only" not in str(pilot.app.screen.query_one("#bar", Static).visual)
        await press(pilot, "n")
        assert selected(pilot) != first and "canal" in pilot.app.screen.session.turn_at(selected(pilot)).text.lower()
        await press(pilot, "escape", "n")  # search cleared: n is the next flagged turn again
        assert selected(pilot) in FLAGGED

    drive(session_copy, scenario)


def test_copy_puts_the_recovered_arguments_on_the_clipboard(session_copy: Path):
    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        await press(pilot, "y")
        assert json.loads(pilot.app.clipboard)["memory_type"] == "journal"
        assert notes[-1] == "Copied the arguments of save_memory (if your terminal accepts OSC 52)"

    drive(session_copy, scenario)


def test_model_text_with_markup_and_escapes_is_shown_literally(write_session):
    reply = '{success: true, memory_type: "journal", content: "[bold]x[/bold]"}Saved \x1b[31mred[/bold] for you.'
    path = write_session(
        [{"role": "user", "content": "save [red]this[/red]"}, {"role": "assistant", "content": reply}],
        [SAVE_MEMORY],
        name="markup.openai.json",
    )

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        screen = pilot.app.screen
        assert selected(pilot) == 1
        original = str(screen.query_one("#original", Static).visual)
        assert "[bold]x[/bold]" in original and "\\x1b[31mred[/bold]" in original and "\x1b" not in original
        repair = str(screen.query_one("#repair", Static).visual)
        assert "Saved \\x1b[31mred[/bold] for you." in repair and '"[bold]x[/bold]"' in repair

    drive(path, scenario)


def test_a_file_that_is_not_a_session_is_refused_before_any_screen(tmp_path: Path):
    path = tmp_path / "broken.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(InspectorError, match="broken.json: line 1 column 2: invalid JSON"):
        InspectorApp(path)


def test_a_broken_call_is_shown_as_recorded_beside_its_repair(tmp_path: Path):
    path = Path(shutil.copy(SESSIONS / "analyst-agent.openai.json", tmp_path / "analyst-agent.openai.json"))

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        screen = pilot.app.screen
        assert selected(pilot) == 2 and "malformed-arguments" in finding_text(pilot)
        assert '"limit": 10}}' in str(screen.query_one("#original", Static).visual)  # the extra brace, as recorded
        repair = str(screen.query_one("#repair", Static).visual)
        assert "Corrected call query_db" in repair and '"limit": 10\n}' in repair

    drive(path, scenario)


def test_every_key_is_in_the_help_screen_and_the_command_palette(session_copy: Path):
    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        screen = pilot.app.screen
        await press(pilot, "question_mark")
        assert isinstance(pilot.app.screen, HelpScreen)
        assert ("a", "Approve the fix shown") in pilot.app.screen.bindings
        assert ("/", "Search the turns' text, calls and results") in pilot.app.screen.bindings
        await press(pilot, "escape", "a")
        assert screen.review.status(0, 0) == "approved"
        await press(pilot, "ctrl+p")
        await pilot.press(*"undo the last")
        hits = pilot.app.screen.query_one(CommandList)
        await until(
            pilot, lambda: hits.option_count, "the command palette's matches"
        )  # it searches in a background task
        await press(pilot, "enter")
        await pilot.pause()
        assert pilot.app.screen is screen and screen.review.status(0, 0) == "pending"
        assert notes[-1] == "Undid approve result-prefix at turn 6"

    drive(session_copy, scenario)


def test_undo_shows_the_finding_undone_so_the_next_key_decides_on_it(session_copy: Path):
    async def decide_then_undo(pilot: Pilot, notes: list[str]) -> None:
        screen = pilot.app.screen
        await press(pilot, "a")  # approve turn 6, which moves on to turn 8
        assert selected(pilot) == 8
        await press(pilot, "u")
        assert selected(pilot) == 6 and notes[-1] == "Undid approve result-prefix at turn 6"
        await press(pilot, "s")
        assert [screen.review.status(0, index) for index in (0, 1)] == ["skipped", "pending"]

    async def resume(pilot: Pilot, notes: list[str]) -> None:
        assert pilot.app.screen.review.status(0, 0) == "skipped"
        await press(pilot, "u")
        assert pilot.app.screen.review.status(0, 0) == "skipped"
        assert notes[-1] == (
            "Nothing to undo since the review was opened: to change a decision saved before, "
            "select its finding and decide again (a, s, e)"
        )

    drive(session_copy, decide_then_undo)
    drive(session_copy, resume)


def test_a_resumed_review_opens_on_the_first_finding_still_pending(session_copy: Path):
    async def decide(pilot: Pilot, notes: list[str]) -> None:
        await press(pilot, "a", "s", "s")  # turns 6 and 8, and the first of turn 14's two findings

    async def resumed(pilot: Pilot, notes: list[str]) -> None:
        assert selected(pilot) == 14 and "pending · turn 14 · finding 2 of 2" in finding_text(pilot)
        await press(pilot, "A", "y")

    async def all_decided(pilot: Pilot, notes: list[str]) -> None:
        assert selected(pilot) == 6 and "approved · turn 6" in finding_text(pilot)

    drive(session_copy, decide)
    drive(session_copy, resumed)
    drive(session_copy, all_decided)
