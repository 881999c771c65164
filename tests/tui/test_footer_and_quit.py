"""On an 80-column terminal the review's footer keeps the keys a review needs (f, /, y, and X
when an executor is given), hiding the least needed ones first; ctrl+c quits from any screen,
asking first, like q, when decisions are not exported (Textual's own ctrl+c only said how to quit)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.pilot import Pilot
from textual.widgets import Static
from textual.widgets._footer import FooterKey

from inspector.tui.app import InspectorApp
from inspector.tui.dialogs.confirm import Confirm
from inspector.tui.footer import FittingFooter
from inspector.tui.help import HelpScreen
from inspector.tui.review.screen import ReviewScreen
from tests.helpers.app import play_loaded
from tests.helpers.pilot import press

pytestmark = pytest.mark.slow  # drives the app with Pilot

ESSENTIAL = {"flagged_only", "search", "copy", "approve", "skip", "edit", "export", "next(True)"}


def keys_in_view(pilot: Pilot) -> set[str]:
    """The actions of the footer's keys drawn whole inside the screen."""
    width = pilot.app.size.width
    return {
        key.action
        for key in pilot.app.screen.query_one(FittingFooter).query(FooterKey)
        if key.display and key.region.width and key.region.right <= width
    }


@pytest.mark.parametrize("execute", [None, "cat"], ids=["no-executor", "executor"])
def test_the_footer_keeps_the_essential_keys_on_80_columns(session_copy: Path, execute: str | None):
    async def scenario(pilot: Pilot) -> None:
        await pilot.pause()
        footer = pilot.app.screen.query_one(FittingFooter)
        shown = keys_in_view(pilot)
        assert shown >= ESSENTIAL and set(footer.shown_actions()) == shown  # nothing shown is cut off
        assert ("execute" in shown) == (execute is not None)
        await pilot.resize_terminal(160, 40)
        await pilot.pause()
        assert {"skip_all", "approve_all", "next(False)", "app.quit", "help", "undo"} <= keys_in_view(pilot)

    play_loaded(InspectorApp(session_copy, execute), scenario, size=(80, 30))


def test_ctrl_c_quits_at_once_without_decisions(session_copy: Path):
    async def scenario(pilot: Pilot) -> None:
        await press(pilot, "ctrl+c")
        assert not pilot.app.is_running

    play_loaded(InspectorApp(session_copy), scenario, size=(80, 30))


def test_ctrl_c_copies_a_selection_else_asks_like_q_when_decisions_are_not_exported(session_copy: Path):
    async def scenario(pilot: Pilot) -> None:
        await press(pilot, "a", "slash")  # typing in the search box
        await pilot.press(*"canal")
        await press(pilot, "shift+home", "ctrl+c")  # text selected: ctrl+c copies it
        assert pilot.app.clipboard == "canal" and isinstance(pilot.app.screen, ReviewScreen)
        await press(pilot, "end", "ctrl+c")  # nothing selected: ctrl+c quits, asking first
        assert isinstance(pilot.app.screen, Confirm) and "not exported yet" in str(
            pilot.app.screen.query_one("#question").visual
        )
        await press(pilot, "n")
        assert isinstance(pilot.app.screen, ReviewScreen) and pilot.app.is_running
        await press(pilot, "ctrl+c", "ctrl+c")  # asked again, in the dialog: quits
        assert not pilot.app.is_running

    play_loaded(InspectorApp(session_copy), scenario, size=(80, 30))


def test_the_help_names_ctrl_c(session_copy: Path):
    async def scenario(pilot: Pilot) -> None:
        await press(pilot, "question_mark")
        keys = dict(pilot.app.screen.bindings)
        assert isinstance(pilot.app.screen, HelpScreen) and keys["^c"].startswith("Quit from any screen")

    play_loaded(InspectorApp(session_copy), scenario, size=(120, 40))


class _Box(Static, can_focus=True):
    """A focusable box without keys of its own."""


class _Panel(_Box):
    """A focusable box whose own key shows in the footer while it has the focus."""

    BINDINGS = [Binding("p", "app.panel", "Panel key")]


class _FooterApp(App[None]):
    """A screen with the footer, a focusable panel adding a key, and two plain focusable boxes
    (the keys' actions do nothing)."""

    BINDINGS = [Binding("a", "always", "Always"), Binding("h", "hidden", "Hidden first")]

    def compose(self) -> ComposeResult:
        yield _Box("one", id="one")
        yield _Box("two", id="two")
        yield _Panel("panel", id="panel")
        yield FittingFooter(["hidden"])


def test_the_footer_follows_the_keys_of_the_focus_and_keeps_its_keys_when_they_do_not_change():
    async def scenario(pilot: Pilot) -> None:
        footer = pilot.app.screen.query_one(FittingFooter)

        async def focus(selector: str) -> list[FooterKey]:
            pilot.app.screen.query_one(selector).focus()
            await pilot.pause()
            await pilot.pause()
            return list(footer.query(FooterKey))

        first = await focus("#one")
        assert [key.description for key in first] == ["Always", "Hidden first"]
        assert await focus("#two") == first  # the same keys: the same widgets, not composed again
        with_panel = await focus("#panel")
        assert [key.description for key in with_panel] == ["Panel key", "Always", "Hidden first"]
        assert all(key.has_class("-compact") for key in with_panel)
        assert [key.description for key in await focus("#one")] == ["Always", "Hidden first"]

    async def run() -> None:
        async with _FooterApp().run_test(size=(80, 10)) as pilot:
            await pilot.pause()
            await scenario(pilot)

    asyncio.run(run())
