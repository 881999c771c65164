"""Opening a session: the first flagged turn is shown from the first findings, before the whole
session is scanned, and the full findings then take over without moving the selection."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from inspector.scan.scanner import scan_file
from inspector.sources.files.session_file import SessionFile
from inspector.tui.app import InspectorApp
from inspector.tui.review.screen import ReviewScreen
from inspector.tui.review.turn_list import TurnList
from tests.helpers.app import finding_text, play_loaded
from tests.helpers.large_files import large_openai
from tests.helpers.pilot import WAIT, play, settle, until
from tests.helpers.samples import SESSIONS


def test_the_first_findings_select_the_first_flagged_turn_before_the_review_is_ready(tmp_path: Path):
    path = Path(shutil.copy(SESSIONS / "analyst-agent.openai.json", tmp_path / "analyst.json"))
    app = InspectorApp(path)
    seen: list[tuple[str, int | None, object]] = []  # message, selected turn, the review then

    def hook(message) -> None:
        if isinstance(message, (ReviewScreen.Early, ReviewScreen.Ready)):
            screen = app.screen
            seen.append((type(message).__name__, screen.query_one(TurnList).position, screen.review))

    async def scenario(pilot: Pilot) -> None:
        screen = pilot.app.screen
        assert screen.query_one(TurnList).position == screen.review.findings(0)[0].turn == 2
        assert "malformed-arguments · error · pending · turn 2" in finding_text(pilot)

    play_loaded(app, scenario, message_hook=hook)
    first_ready = next(entry for entry in seen if entry[0] == "Ready")  # the hook sees a message more than once
    assert seen[0][0] == "Early"
    assert first_ready[1:] == (2, None)  # when the full findings arrive, turn 2 is already shown


@pytest.mark.parametrize("opened", ["directly", "from its folder's list"])
def test_a_large_file_shows_its_first_flagged_turn_from_its_start_while_the_rest_is_read(
    tmp_path: Path, monkeypatch, opened: str
):
    """The whole file is held back until the test lets it be read: meanwhile the screen says it is
    reading, lists the start's turns and shows the first finding; the end state is a full load's.
    From a list, the hold starts once the list has scanned the file for its row."""
    path = large_openai(tmp_path)
    full = scan_file(path)[0]
    whole_read = threading.Event()
    read_whole = SessionFile.all_sessions

    def held_back(source: SessionFile) -> list:
        assert whole_read.wait(WAIT), "the test never let the whole file be read"
        return read_whole(source)

    def hold() -> None:
        monkeypatch.setattr(SessionFile, "all_sessions", held_back)

    if opened == "directly":
        hold()
    app = InspectorApp(path if opened == "directly" else tmp_path)

    async def scenario(pilot: Pilot) -> None:
        if opened != "directly":
            await settle(pilot)  # the list's row scanned
            hold()
            await pilot.press("enter")
        screen = pilot.app.screen
        assert isinstance(screen, ReviewScreen)
        turns = screen.query_one(TurnList)
        label = screen.query_one("#loading-label", Static)
        await until(pilot, lambda: screen.session is not None and turns.position is not None, "the start's turns")
        await until(pilot, lambda: "malformed-arguments" in finding_text(pilot), "the first finding")
        assert str(label.render()).startswith(f"Reading {path.name}…")
        assert 0 < len(screen.session.turns) < len(full.session.turns) and screen.review is None
        assert turns.position == full.findings[0].turn == 2
        whole_read.set()
        await until(pilot, lambda: screen.review is not None, "the whole file read and scanned")
        await pilot.pause()
        assert len(screen.session.turns) == len(full.session.turns)
        assert screen.review.findings(0) == full.findings
        assert turns.position == 2 and "malformed-arguments · error · pending · turn 2" in finding_text(pilot)

    try:
        play(app, scenario)
    finally:
        whole_read.set()


def test_a_large_file_broken_at_its_end_opens_on_its_start_and_then_says_why_it_cannot_be_read(tmp_path: Path):
    path = large_openai(tmp_path)
    with path.open("r+b") as file:
        file.truncate(path.stat().st_size - 10)  # its last message and brackets cut off
    app = InspectorApp(path)  # its start is read: no error before the screen

    async def scenario(pilot: Pilot) -> None:
        screen = pilot.app.screen
        bar = screen.query_one("#bar", Static)
        await until(pilot, lambda: "invalid JSON" in str(bar.render()), "the error in the bar")
        assert f"{path}: line " in str(bar.render()) and screen.review is None

    play(app, scenario)
