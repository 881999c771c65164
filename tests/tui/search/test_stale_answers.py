"""The search runs in a thread as words are typed: typing goes on while a query runs, and an
answer that comes late never replaces the answer of words typed after it."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from textual.pilot import Pilot

from inspector.search import SearchFilter
from inspector.sources.discovery import discover
from inspector.tui.app import InspectorApp
from inspector.tui.search.hit_list import HitList
from inspector.tui.search.index_access import Answer, IndexAccess
from tests.helpers.home_sessions import every_agent_s_session
from tests.helpers.pilot import play, until
from tests.tui.search.helpers import answered, open_search

pytestmark = pytest.mark.slow  # drives the app with Pilot


def test_a_late_answer_never_replaces_a_newer_one(empty_home: Path, monkeypatch: pytest.MonkeyPatch):
    every_agent_s_session(empty_home)
    release, held = threading.Event(), threading.Event()
    original = IndexAccess.answer

    def slow_for_thursday(self: IndexAccess, typed: str, chosen: SearchFilter, limit: int = 100) -> Answer:
        answer = original(self, typed, chosen, limit)
        if typed == "Thursday":  # answered, but handed over only once the next words are answered
            held.set()
            release.wait(30)
        return answer

    monkeypatch.setattr(IndexAccess, "answer", slow_for_thursday)

    async def scenario(pilot: Pilot) -> None:
        screen = await open_search(pilot)
        await pilot.press(*"Thursday")
        await until(pilot, held.is_set, "the query of Thursday to run")
        await pilot.press(*" notes")  # typed while that query still runs
        assert screen.query_one("#query").value == "Thursday notes"
        await answered(pilot, screen, "Thursday notes")
        newer = list(screen.query_one(HitList).hits)
        release.set()
        await pilot.pause(0.3)
        assert screen.answer is not None and screen.answer.typed == "Thursday notes"
        assert screen.query_one(HitList).hits == newer

    play(InspectorApp(None, found=discover()), scenario, size=(140, 40), settled=True)
