"""`inspector` with no path on a temporary home folder holding a Cursor CLI chat: the picker lists
its store as a history, Enter lists its one conversation and opens it in the review screen."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable

from inspector.cli.main import main
from inspector.tui.picker.found import Conversations, FoundPicker
from inspector.tui.review.screen import ReviewScreen
from tests.helpers.home_sessions import put
from tests.helpers.pilot import play, rows
from tests.helpers.samples import TOOL_SAMPLES

pytestmark = pytest.mark.slow  # drives the app with Pilot

AGENT_ID = "6f1d2c3b-4a59-4e7d-9c1b-2a3f4e5d6c7b"


def test_a_cursor_chat_is_listed_as_a_history_and_opens_through_its_conversation(empty_home: Path, opened):
    workspace = hashlib.md5(b"/tmp/cu-work").hexdigest()
    store = put(
        TOOL_SAMPLES / "cursor-cli.store.db",
        empty_home / ".cursor" / "chats" / workspace / AGENT_ID / "store.db",
        1_700_000_000,
    )
    assert main([]) == 0

    async def scenario(pilot: Pilot) -> None:
        picker = pilot.app.screen
        assert isinstance(picker, FoundPicker) and picker.scanned.is_set()
        [listed] = rows(picker.query_one(DataTable))
        assert listed[0] == "Cursor CLI" and listed[3:5] == ["9", "1 conversation, Enter lists it"]
        await pilot.press("enter")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        conversations = pilot.app.screen
        assert isinstance(conversations, Conversations)
        assert [row[:3] for row in rows(conversations.query_one(DataTable))] == [
            ["store.db", AGENT_ID, "1 result-prefix, 1 tool-markup"]
        ]
        await pilot.press("enter")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(pilot.app.screen, ReviewScreen) and pilot.app.screen.path == store

    [app] = opened
    play(app, scenario, size=(140, 40), settled=True)
