"""The theme the person chooses (ctrl+t, or the command palette) is kept for the next runs in the
state folder's settings.json, written whole; a broken or unusable settings file is ignored with a
notice, never a crash; and on a light theme the turn list draws its text in the theme's colours
(not the terminal's own, light grey on a dark strip in a light pane)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from textual.command import CommandList
from textual.pilot import Pilot

from inspector.tui.app import InspectorApp
from inspector.tui.review.turn_list import TurnList
from tests.helpers.app import play_loaded
from tests.helpers.pilot import until

pytestmark = pytest.mark.slow  # drives the app with Pilot


def settings() -> Path:
    return Path(os.environ["XDG_STATE_HOME"]) / "inspector" / "settings.json"


def run(path: Path, scenario) -> list[str]:
    """Run the app on `path` at 120x40, play `scenario`; the notifications shown."""
    app = InspectorApp(path)
    notes: list[str] = []

    async def noting(pilot: Pilot) -> None:
        await scenario(pilot)
        notes.extend(notification.message for notification in app._notifications)

    play_loaded(app, noting)
    return notes


async def choose_theme(pilot: Pilot, name: str) -> None:
    await pilot.press("ctrl+t")
    await pilot.pause()
    await pilot.press(*name)
    hits = pilot.app.screen.query_one(CommandList)
    await until(pilot, lambda: hits.option_count, "the command palette's matches")  # it searches in a background task
    await pilot.press("enter")
    await pilot.pause()


async def nothing(pilot: Pilot) -> None:
    pass


def test_the_theme_chosen_is_kept_for_the_next_run(session_copy: Path):
    themes: list[str] = []

    async def choose(pilot: Pilot) -> None:
        assert pilot.app.theme == "textual-dark"
        await choose_theme(pilot, "solarized-light")
        themes.append(pilot.app.theme)

    async def reopen(pilot: Pilot) -> None:
        themes.append(pilot.app.theme)

    assert run(session_copy, choose) == [] and not any(settings().parent.glob(".*.tmp"))
    assert json.loads(settings().read_text()) == {"theme": "solarized-light"}
    assert run(session_copy, reopen) == []
    assert themes == ["solarized-light", "solarized-light"]


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ("{not json", "the settings are not JSON (line 1 column 2)"),
        ('["solarized-light"]', "the settings are not a JSON object"),
        ('{"theme": "no-such-theme"}', "no theme 'no-such-theme' in this version"),
    ],
    ids=["not-json", "not-an-object", "unknown-theme"],
)
def test_a_broken_settings_file_is_ignored_with_a_notice(session_copy: Path, content: str, said: str):
    settings().parent.mkdir(parents=True)
    settings().write_text(content)
    themes: list[str] = []

    async def choose(pilot: Pilot) -> None:
        themes.append(pilot.app.theme)
        await choose_theme(pilot, "textual-light")

    notes = run(session_copy, choose)
    assert themes == ["textual-dark"]
    assert notes == [f"{settings()}: {said}: ignored, the default theme is used"]
    assert json.loads(settings().read_text()) == {"theme": "textual-light"}  # written anew


def test_a_theme_that_cannot_be_kept_is_said_once_chosen(session_copy: Path, tmp_path: Path, monkeypatch):
    blocked = tmp_path / "state-is-a-file"
    blocked.write_text("")
    monkeypatch.setenv("XDG_STATE_HOME", str(blocked))

    async def choose(pilot: Pilot) -> None:
        await choose_theme(pilot, "textual-light")
        assert pilot.app.theme == "textual-light"

    notes = run(session_copy, choose)
    assert len(notes) == 1 and notes[0].startswith("The theme is not kept for the next runs: ")


def test_a_light_theme_draws_the_turn_list_in_its_own_colours(session_copy: Path):
    async def light(pilot: Pilot) -> None:
        pilot.app.theme = "textual-light"
        await pilot.pause()
        turns = pilot.app.screen.query_one(TurnList)
        background = turns.rich_style.bgcolor
        for row in (0, 1):  # neither selected (the first flagged turn is)
            segments = [segment for segment in turns.render_line(row) if segment.text.strip()]
            assert segments and all(
                segment.style.bgcolor == background and segment.style.color is not None for segment in segments
            )

    run(session_copy, light)
