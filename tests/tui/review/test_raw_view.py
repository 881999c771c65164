"""The raw view (r): the selected turn's record as stored, plain text, bounded for huge records."""

from __future__ import annotations

import json

import pytest
from textual.pilot import Pilot
from textual.widgets import Static, TextArea

from inspector.tui.review.raw_record import RAW_LIMIT, raw_record_text
from inspector.tui.review.raw_view import RawRecordScreen
from inspector.tui.review.screen import ReviewScreen
from tests.helpers.app import drive, selected
from tests.helpers.pilot import press
from tests.helpers.timing import cpu_time
from tests.helpers.tools import SAVE_MEMORY

pytestmark = pytest.mark.slow  # drives the app with Pilot

REPLY = {
    "role": "assistant",
    "id": "msg_01",
    "x_trace": {"span": "abc", "tags": ["[bold]kept[/bold]"]},
    "content": '{success: true, memory_type: "journal", content: "walk"}Saved \x1b[31m\u0085 for you.',
}


def test_r_shows_the_record_as_stored_with_its_ids_and_unknown_keys(write_session):
    path = write_session([{"role": "user", "content": "save it"}, REPLY], [SAVE_MEMORY])

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        assert selected(pilot) == 1
        await press(pilot, "r")
        screen = pilot.app.screen
        assert isinstance(screen, RawRecordScreen)
        shown = screen.query_one("#raw", TextArea).text
        assert '"id": "msg_01"' in shown and '"x_trace": {\n    "span": "abc",' in shown
        assert '"[bold]kept[/bold]"' in shown  # not markup
        assert "\\u001b[31m" in shown and "\\x85" in shown and "\x1b" not in shown and "\x85" not in shown
        assert json.loads(shown.replace("\\x85", "\\u0085")) == REPLY  # the whole record, as JSON
        assert not screen.query("#cut")
        await press(pilot, "q")
        assert isinstance(pilot.app.screen, ReviewScreen)

    drive(path, scenario)


def test_a_huge_record_shows_its_first_part_with_a_note(write_session):
    huge = {**REPLY, "content": "ok", "x_blob": "0123456789" * 300_000}  # 3 MB
    path = write_session([{"role": "user", "content": "save it"}, huge], [SAVE_MEMORY])

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        await press(pilot, "j", "r")
        screen = pilot.app.screen
        assert isinstance(screen, RawRecordScreen)
        assert len(screen.query_one("#raw", TextArea).text) == RAW_LIMIT
        assert str(screen.query_one("#cut", Static).visual) == "Only the first 200 KB of this record are shown."
        await press(pilot, "escape")
        assert isinstance(pilot.app.screen, ReviewScreen)

    drive(path, scenario)


def test_writing_a_huge_record_stops_at_the_limit():
    record = {"blobs": ["x" * 1000] * 200_000}  # 200 MB of JSON, were it all written
    started = cpu_time()
    shown = raw_record_text(record)
    assert cpu_time() - started < 1.0
    assert shown.cut and len(shown.text) == RAW_LIMIT and shown.text.startswith('{\n  "blobs": [\n    "xxx')
    assert raw_record_text({"a": b"\x00\x01", "b": (1, 2)}) == raw_record_text({"a": "<2 bytes>", "b": [1, 2]})
    assert not raw_record_text({"a": 1}).cut
