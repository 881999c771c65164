"""Opening a session: the first flagged turn is shown from the first findings, before the whole
session is scanned, and the full findings then take over without moving the selection."""

from __future__ import annotations

import shutil
from pathlib import Path

from textual.pilot import Pilot

from inspector.tui.app import InspectorApp
from inspector.tui.review.screen import ReviewScreen
from inspector.tui.review.turn_list import TurnList
from tests.helpers.app import finding_text, play_loaded
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
