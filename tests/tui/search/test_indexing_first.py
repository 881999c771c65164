"""The search screen brings the index up to date before its first query, in a thread: a line
says so while it runs, the words typed meanwhile are kept, and they are searched once it is done."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from textual.pilot import Pilot

import inspector.search.reading as reading
from inspector.sources.discovery import discover
from inspector.tui.app import InspectorApp
from inspector.tui.search.hit_list import HitList
from inspector.tui.search.screen import SearchScreen
from tests.helpers.home_sessions import every_agent_s_session
from tests.helpers.pilot import play, press, until
from tests.tui.search.helpers import answered, line

pytestmark = pytest.mark.slow  # drives the app with Pilot


def test_words_typed_while_the_index_is_built_are_searched_once_it_is(
    empty_home: Path, monkeypatch: pytest.MonkeyPatch
):
    files = len(every_agent_s_session(empty_home))
    release = threading.Event()
    original = reading.read_file

    def held(path: Path) -> reading.FileRows:
        release.wait(30)  # the first index takes its time
        return original(path)

    monkeypatch.setattr("inspector.search.indexer.PARALLEL_FROM", 10**9)  # read in this process
    monkeypatch.setattr("inspector.search.indexer.read_file", held)

    async def scenario(pilot: Pilot) -> None:
        await press(pilot, "ctrl+f")
        screen = pilot.app.screen
        assert isinstance(screen, SearchScreen)
        await until(
            pilot, lambda: f"up to date with {files} session files" in line(screen, "index"), "the indexing line"
        )
        await pilot.press(*"Thursday")  # typed while the index is built: kept, not searched yet
        await pilot.pause(0.3)
        assert screen.answer is None and screen.query_one("#query").value == "Thursday"
        release.set()
        await answered(pilot, screen, "Thursday")
        assert screen.query_one(HitList).hits and f"{files} session files indexed" in line(screen, "index")

    try:
        play(InspectorApp(None, found=discover()), scenario, size=(140, 40), settled=True)
    finally:
        release.set()  # a failed scenario leaves no reader waiting
