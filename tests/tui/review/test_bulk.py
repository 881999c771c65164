"""Deciding on a kind at once: `S` skips every pending finding of the shown finding's kind, or
acknowledges it when it has no fix (an info finding such as `tool-error`, which no fix would ever
decide); `A` approves them. In a file of several sessions, or in a history, the person chooses
this session or every one: a history's other conversations are read and scanned, and their
decisions go to the review file by conversation id. `u` undoes such a step as one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from inspector.review.review_file import SKIPPED
from inspector.scan.scanner import iter_scan
from inspector.sources import open_source
from inspector.tui.app import InspectorApp
from inspector.tui.dialogs.choose import Choose
from inspector.tui.dialogs.confirm import Confirm
from tests.helpers.app import decided, drive, export_with_defaults, play_noting, reviewed
from tests.helpers.pilot import play, press, settle
from tests.helpers.rubyllm import BOARD_CHATS, build_rubyllm
from tests.helpers.samples import TOOL_SAMPLES

pytestmark = pytest.mark.slow  # drives the app with Pilot


def test_acknowledging_a_kind_in_every_conversation_is_one_step_and_reaches_the_others(tmp_path: Path):
    database = build_rubyllm(tmp_path / "app.db", BOARD_CHATS)

    async def acknowledge(pilot: Pilot) -> None:
        screen = await reviewed(pilot)
        assert "tool-error" in str(screen.query_one("#finding", Static).visual)
        await pilot.press("S")
        dialog = pilot.app.screen
        assert isinstance(dialog, Choose)
        assert str(dialog.query_one("#question", Static).visual) == (
            "Acknowledge every pending tool-error finding of this conversation (1), or of every conversation "
            "of app.db (each is read and scanned)?"
        )
        await pilot.press("a")
        await settle(pilot)
        statuses = decided(database)
        assert sorted(conversation for conversation, _ in statuses) == ["1", "2", "2", "3"]
        assert set(statuses.values()) == {SKIPPED} and all(key.place.startswith("tool-error:") for _, key in statuses)
        assert screen.review.counts(0).pending == 1  # the result-prefix is left as it was
        await press(pilot, "u")
        assert decided(database) == {} and screen.review.counts(0).pending == 2
        await press(pilot, "S", "a")
        await settle(pilot)

    notes = play_noting(InspectorApp(database, session="1"), acknowledge)
    reading = "Reading every conversation of app.db for pending tool-error findings…"
    assert notes[-5:] == [
        reading,
        "Acknowledged 4 tool-error findings in 3 conversations (u undoes them all)",
        "Undid skip all 4 pending tool-error in 3 conversations",
        reading,
        "Acknowledged 4 tool-error findings in 3 conversations (u undoes them all)",
    ]

    async def other_conversation(pilot: Pilot) -> None:
        screen = await reviewed(pilot)
        counts = screen.review.counts(0)
        assert (counts.flagged, counts.skipped, counts.pending) == (3, 2, 1)  # its result-prefix still pending

    play(InspectorApp(database, session="2"), other_conversation)


def test_approving_a_kind_in_every_conversation_is_exported_with_each_of_them(tmp_path: Path):
    database = build_rubyllm(tmp_path / "app.db", BOARD_CHATS)

    async def approve(pilot: Pilot) -> None:
        screen = await reviewed(pilot)
        await pilot.press("n")  # the result-prefix after the tool-error
        await pilot.pause()
        assert "result-prefix" in str(screen.query_one("#finding", Static).visual)
        await pilot.press("A", "a")
        await settle(pilot)
        await export_with_defaults(pilot)

    notes = play_noting(InspectorApp(database, session="1"), approve)
    assert "Approved 2 result-prefix findings in 2 conversations (u undoes them all)" in notes
    exported = {
        result.session.session_id: sorted(finding.kind for finding in result.findings)
        for result in iter_scan(open_source(tmp_path / "app.fixed.db"))
    }
    assert exported == {"1": ["tool-error"], "2": ["tool-error", "tool-error"], "3": ["tool-error"], "4": []}


def tool_error_session(first: str, second: str) -> list[dict]:
    """An OpenAI session with two calls answered by errors."""
    messages = [{"role": "user", "content": "Read both files."}]
    for call_id, error in (("r1", first), ("r2", second)):
        messages += [
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {"name": "read_file", "arguments": json.dumps({"path": f"{call_id}.txt"})},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": call_id, "content": json.dumps({"error": error})},
        ]
    return messages + [{"role": "assistant", "content": "Neither file could be read."}]


def test_acknowledging_the_tool_errors_of_a_session_decides_them(tmp_path: Path):
    path = tmp_path / "files.openai.json"
    path.write_text(json.dumps({"messages": tool_error_session("no such file", "permission denied")}))

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        screen = pilot.app.screen
        assert screen.review.counts(0).pending == 2
        await press(pilot, "S")
        assert (
            isinstance(pilot.app.screen, Confirm)
            and str(pilot.app.screen.query_one("#question", Static).visual)
            == "Acknowledge all 2 pending tool-error findings of this session?"
        )
        await press(pilot, "y")
        assert screen.review.counts(0).pending == 0 and "pending 0" in str(screen.query_one("#bar", Static).visual)
        assert notes[-1] == "Acknowledged 2 tool-error findings (u undoes them all)"

    drive(path, scenario)


def test_approving_a_kind_says_how_many_of_its_findings_are_warnings(tmp_path: Path):
    """Of Claude Code's two malformed calls, the cut-off one's repair guessed (a warning): approving
    them all says so, where it asked as for any two; skipping them all does not need it."""
    path = Path(shutil.copy(TOOL_SAMPLES / "claude-code.jsonl", tmp_path / "session.jsonl"))

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        screen = pilot.app.screen
        await press(pilot, "n", "n")
        assert "malformed-arguments · warning" in str(screen.query_one("#finding", Static).visual)
        await press(pilot, "A")
        assert str(pilot.app.screen.query_one("#question", Static).visual) == (
            "Approve all 2 pending malformed-arguments findings of this session? 1 of them is a warning "
            "(its repair guessed, or the finding is less sure): cancel to read it first."
        )
        await press(pilot, "n", "S")
        assert str(pilot.app.screen.query_one("#question", Static).visual) == (
            "Skip all 2 pending malformed-arguments findings of this session?"
        )
        await press(pilot, "n")

    drive(path, scenario)


def test_every_session_of_a_file_of_several(tmp_path: Path):
    path = tmp_path / "runs.openai.jsonl"
    path.write_text("\n".join(json.dumps({"messages": tool_error_session(f"run {n}", "gone")}) for n in (1, 2)) + "\n")

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        screen = pilot.app.screen
        await press(pilot, "S")
        assert isinstance(pilot.app.screen, Choose)
        assert str(pilot.app.screen.query_one("#answer-a").label) == "Every session (4) (a)"
        await press(pilot, "a")
        assert [screen.review.counts(session).pending for session in (0, 1)] == [0, 0]
        assert notes[-1] == "Acknowledged 4 tool-error findings in 2 sessions (u undoes them all)"
        await press(pilot, "u")
        assert [screen.review.counts(session).pending for session in (0, 1)] == [2, 2]
        await press(pilot, "S", "t")
        assert [screen.review.counts(session).pending for session in (0, 1)] == [0, 2]

    drive(path, scenario)
