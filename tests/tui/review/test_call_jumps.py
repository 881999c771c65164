"""Jumping between a call and its result (c), and the detail's header saying where the other is."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from tests.helpers.app import drive, selected
from tests.helpers.pilot import press
from tests.helpers.samples import SESSIONS
from tests.helpers.tools import SAVE_MEMORY

pytestmark = pytest.mark.slow  # drives the app with Pilot


def header(pilot: Pilot) -> str:
    return str(pilot.app.screen.query_one("#turn-header", Static).visual)


def test_c_goes_from_a_call_to_its_result_and_back(tmp_path: Path):
    path = Path(shutil.copy(SESSIONS / "analyst-agent.openai.json", tmp_path / "analyst.openai.json"))

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        assert selected(pilot) == 2
        assert header(pilot) == "Turn 2 · assistant · the result is at turn 3 (c goes there)"
        await press(pilot, "c")
        assert selected(pilot) == 3 and header(pilot) == "Turn 3 · tool · its call is at turn 2 (c goes there)"
        await press(pilot, "c")
        assert selected(pilot) == 2
        await press(pilot, "k", "c")
        assert selected(pilot) == 1 and notes[-1] == "This turn holds no call and no result"
        assert header(pilot) == "Turn 1 · user"

    drive(path, scenario)


def test_a_call_without_result_and_a_result_without_call_say_so(write_session):
    path = write_session(
        [
            {"role": "user", "content": "remember this"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "save_memory", "arguments": '{"memory_type": "fact", "content": "x"}'},
                    }
                ],
            },
            {"role": "assistant", "content": "Saved."},
            {"role": "tool", "tool_call_id": "call_9", "content": "ok"},
        ],
        [SAVE_MEMORY],
    )

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        await press(pilot, "g", "j")
        assert selected(pilot) == 1 and header(pilot) == "Turn 1 · assistant · no result found for save_memory"
        await press(pilot, "c")
        assert selected(pilot) == 1 and notes[-1] == "No result found for save_memory"
        await press(pilot, "G", "c")
        assert selected(pilot) == 3 and notes[-1] == "No call found for this result"

    drive(path, scenario)


def test_the_header_shows_the_time_model_and_tokens_the_record_holds(tmp_path: Path):
    path = Path(shutil.copy(SESSIONS / "notes-agent.claude-code.jsonl", tmp_path / "notes.jsonl"))

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        await press(pilot, "g")
        for _ in range(10):  # turn 5 is a few turns down: never press for ever
            if selected(pilot) == 5:
                break
            await press(pilot, "j")
        assert header(pilot) == (
            "Turn 5 · assistant · 2026-11-24 03:13:21 UTC · claude-sonnet-4-5 · 120 in / 42 out tokens"
        )
        await press(pilot, "k", "k", "k")
        assert header(pilot) == "Turn 2 · user · 2026-11-24 03:13:21 UTC"  # a person's turn: its time only

    drive(path, scenario)
