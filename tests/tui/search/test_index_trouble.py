"""The search screen when the index is in trouble: an index that cannot be made says so in one
line and the app goes on (Esc back to the list, which still opens sessions); garbage over the
index is moved aside and the index built again; an index that fails its queries says so in one
line, and ctrl+r builds it again from scratch."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from textual.pilot import Pilot

from inspector.search import index_path
from inspector.sources.discovery import discover
from inspector.tui.app import InspectorApp
from inspector.tui.picker.found import FoundPicker
from inspector.tui.review.screen import ReviewScreen
from inspector.tui.search.hit_list import HitList
from tests.helpers.home_sessions import every_agent_s_session
from tests.helpers.pilot import play, press, until
from tests.tui.search.helpers import answered, line, open_search, type_words

pytestmark = pytest.mark.slow  # drives the app with Pilot


def play_found(scenario) -> None:
    """Play `scenario` on the list of the person's own sessions, scanned."""
    play(InspectorApp(None, found=discover()), scenario, size=(140, 40), settled=True)


def test_an_index_that_cannot_be_made_is_one_line_and_the_app_goes_on(empty_home: Path):
    every_agent_s_session(empty_home)
    index_path().parent.parent.mkdir(parents=True)
    index_path().parent.write_text("a file where the state folder should be", encoding="utf-8")

    async def scenario(pilot: Pilot) -> None:
        picker = pilot.app.screen
        await press(pilot, "ctrl+f")
        screen = pilot.app.screen
        await until(pilot, lambda: screen.query_one("#index").has_class("-error"), "the index's error")
        said = line(screen, "index")
        assert said.startswith("Cannot search: ") and "cannot make the index's folder" in said
        assert "\n" not in said
        await pilot.press(*"Thursday")  # typing still works, asking nothing
        assert screen.query_one("#query").value == "Thursday" and screen.query_one(HitList).option_count == 0
        await press(pilot, "escape")
        assert pilot.app.screen is picker and isinstance(picker, FoundPicker)
        await press(pilot, "enter")  # the list still opens a session
        assert isinstance(pilot.app.screen, ReviewScreen)

    play_found(scenario)


def test_garbage_over_the_index_is_moved_aside_and_the_search_works(empty_home: Path):
    every_agent_s_session(empty_home)
    index_path().parent.mkdir(parents=True)
    index_path().write_bytes(b"SQLite format 3\x00" + b"\xff" * 4080)

    async def scenario(pilot: Pilot) -> None:
        screen = await open_search(pilot)
        await type_words(pilot, screen, "Thursday")
        assert screen.query_one(HitList).hits
        assert any(path.name.startswith("search.db.broken-") for path in index_path().parent.iterdir())

    play_found(scenario)


def test_an_index_failing_its_queries_says_so_and_ctrl_r_builds_it_again(empty_home: Path):
    every_agent_s_session(empty_home)

    async def first(pilot: Pilot) -> None:
        await open_search(pilot)  # the index, built

    play_found(first)
    with sqlite3.connect(index_path()) as connection:
        connection.execute("DROP TABLE findings")
    connection.close()

    async def scenario(pilot: Pilot) -> None:
        await press(pilot, "ctrl+f")
        screen = pilot.app.screen
        await until(pilot, lambda: "could not answer" in line(screen, "answer"), "the query's error")
        said = line(screen, "answer")
        assert "no such table: findings" in said and "ctrl+r rebuilds it" in said and "\n" not in said
        await press(pilot, "ctrl+r")
        await type_words(pilot, screen, "Thursday")
        await answered(pilot, screen, "Thursday")
        assert screen.query_one(HitList).hits and "could not answer" not in line(screen, "answer")

    play_found(scenario)
