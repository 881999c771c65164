"""The review screen's search: it finds a text in the turns' text, in their calls' names and
arguments and in their results, counts the turns holding it ("2/4" beside the search box), moves
through them with n / N, and highlights it in the turn list and the detail as styles on the plain
text (model text holding markup stays literal)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from inspector.tui.review import navigation
from inspector.tui.review.search import MATCH, MAX_HIGHLIGHTS
from inspector.tui.review.turn_list import TurnList
from tests.helpers.app import drive, selected
from tests.helpers.pilot import press
from tests.helpers.timing import cpu_time

pytestmark = pytest.mark.slow  # drives the app with Pilot


def call(call_id: str, name: str, arguments: dict) -> dict:
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}
        ],
    }


TRAINS = [
    {"role": "system", "content": "You book trains."},
    {"role": "user", "content": "Book me a train to Leeds on Friday, a [bold]window seat[/bold] please."},
    call("c1", "book_train", {"to": "LEEDS", "day": "friday", "seat": "window"}),
    {"role": "tool", "tool_call_id": "c1", "content": json.dumps({"booked": True, "seat": "42A"})},
    {"role": "assistant", "content": "Booked: seat 42A."},
    {"role": "user", "content": "And back from leeds on Sunday?"},
    call("c2", "book_train", {"to": "London", "from": "Leeds", "day": "sunday"}),
    {"role": "tool", "tool_call_id": "c2", "content": json.dumps({"booked": False, "error": "sold out"})},
    {"role": "assistant", "content": "Sunday is sold out."},
]
BOOK_TRAIN = {
    "type": "function",
    "function": {
        "name": "book_train",
        "parameters": {
            "type": "object",
            "properties": {
                "to": {"type": "string"},
                "from": {"type": "string"},
                "day": {"type": "string"},
                "seat": {"type": "string"},
            },
        },
    },
}


def trains(tmp_path: Path, messages: list[dict] = TRAINS) -> Path:
    path = tmp_path / "trains.openai.json"
    path.write_text(json.dumps({"messages": messages, "tools": [BOOK_TRAIN]}), encoding="utf-8")
    return path


async def search(pilot: Pilot, text: str) -> None:
    await press(pilot, "slash")
    await pilot.press(*text)
    await press(pilot, "enter")


def count(pilot: Pilot) -> str:
    return str(pilot.app.screen.query_one("#search-count", Static).visual)


def highlighted(pilot: Pilot, pane: str) -> list[str]:
    """The texts marked as search matches in a pane of the detail."""
    content = pilot.app.screen.query_one(pane, Static).content
    return [content.plain[span.start : span.end] for span in content.spans if span.style == MATCH]


def marked_in_turn_list(pilot: Pilot, row: int) -> list[str]:
    """The texts of a turn list row drawn in the search match's style."""
    turns = pilot.app.screen.query_one(TurnList)
    match = turns.get_component_rich_style("turn-list--match")
    return [
        segment.text
        for segment in turns.render_line(row - turns.scroll_offset.y)
        if segment.style is not None and segment.style.bgcolor == match.bgcolor and segment.style.bold
    ]


def test_search_finds_calls_arguments_and_text_counts_and_highlights_them(tmp_path: Path):
    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        await press(pilot, "g")  # from the first turn
        await search(pilot, "leeds")
        assert selected(pilot) == 1 and count(pilot) == "1/4"
        assert highlighted(pilot, "#original") == ["Leeds"]
        assert marked_in_turn_list(pilot, 1) == ["Leeds"]
        await press(pilot, "n")  # a call's arguments: the turn has no text
        assert selected(pilot) == 2 and count(pilot) == "2/4"
        assert highlighted(pilot, "#original") == ["LEEDS"]
        await press(pilot, "n", "n")
        assert selected(pilot) == 6 and count(pilot) == "4/4"
        await press(pilot, "n")  # round to the first again
        assert selected(pilot) == 1 and count(pilot) == "1/4"
        await press(pilot, "N")
        assert selected(pilot) == 6
        await press(pilot, "k")
        assert selected(pilot) == 5 and count(pilot) == "3/4"
        await press(pilot, "k")  # a turn holding no match
        assert selected(pilot) == 4 and count(pilot) == "4 turns" and highlighted(pilot, "#original") == []

        await press(pilot, "escape")  # clears the search and its highlights
        await search(pilot, "BOOK_TRAIN")  # a tool's name
        assert selected(pilot) == 6 and count(pilot) == "2/2"
        assert highlighted(pilot, "#original") == ["book_train"]
        await press(pilot, "escape")
        assert highlighted(pilot, "#original") == [] and marked_in_turn_list(pilot, 1) == []

        await search(pilot, "42a")  # a result's text
        assert selected(pilot) == 3 and count(pilot) == "1/2"
        await press(pilot, "escape")
        await search(pilot, "[bold]window")  # markup in model text is text: found and highlighted as such
        assert selected(pilot) == 1 and highlighted(pilot, "#original") == ["[bold]window"]
        await press(pilot, "escape")
        await search(pilot, "Paris")
        assert count(pilot) == "no match" and notes[-1] == "No turn contains 'Paris'"

    drive(trains(tmp_path), scenario)


def test_a_search_of_a_turn_made_of_matches_stays_fast(tmp_path: Path):
    messages = [{"role": "user", "content": "ab" * 50_000}, *TRAINS[1:]]  # 100 KB of matches in one turn

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        await press(pilot, "g")
        started = cpu_time()
        await search(pilot, "ab")
        await pilot.pause()
        assert cpu_time() - started < 5
        assert selected(pilot) == 0 and len(highlighted(pilot, "#original")) == MAX_HIGHLIGHTS

    drive(trains(tmp_path, messages), scenario)


def test_a_long_session_is_searched_in_a_thread(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(navigation, "SEARCHED_AT_ONCE", 0)  # as a session of more turns than that is

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        await press(pilot, "g")
        await search(pilot, "leeds")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert selected(pilot) == 1 and count(pilot) == "1/4" and highlighted(pilot, "#original") == ["Leeds"]
        await press(pilot, "n")
        assert selected(pilot) == 2 and count(pilot) == "2/4"

    drive(trains(tmp_path), scenario)
