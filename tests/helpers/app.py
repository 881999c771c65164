"""Driving inspector's own app: opening a session on its review screen, waiting for it to load,
what the screen shows, deciding and exporting, and the decisions its review file keeps."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.message import Message
from textual.notifications import Notify
from textual.pilot import Pilot
from textual.widgets import Static

from inspector.review.review_file import read_review, review_path_for
from inspector.tui.app import InspectorApp
from inspector.tui.dialogs.export import ExportDialog
from inspector.tui.review.screen import ReviewScreen
from inspector.tui.review.turn_list import TurnList
from tests.helpers.pilot import SIZE, play, settle, until


def drive(path: Path, scenario: Callable[[Pilot, list[str]], Awaitable[None]]) -> InspectorApp:
    """Open `path` in the app headless at 120x40, wait for loading, play `scenario` with the list of
    notifications shown so far, and return the app."""
    app = InspectorApp(path)
    notes: list[str] = []

    def hook(message: Message) -> None:
        if isinstance(message, Notify):
            notes.append(message.notification.message)

    async def noting(pilot: Pilot) -> None:
        await scenario(pilot, notes)

    play_loaded(app, noting, message_hook=hook)
    return app


def play_loaded(
    app: InspectorApp,
    scenario: Callable[[Pilot], Awaitable[None]],
    *,
    size: tuple[int, int] = SIZE,
    message_hook: Callable[[Message], None] | None = None,
) -> None:
    """Run `app` headless at `size` and play `scenario` once its review screen has loaded."""

    async def opened(pilot: Pilot) -> None:
        await loaded(pilot)
        await scenario(pilot)

    play(app, opened, size=size, message_hook=message_hook)


def play_noting(app: InspectorApp, scenario: Callable[[Pilot], Awaitable[None]]) -> list[str]:
    """Play `scenario` in the app at 120x40; the notifications shown (none expires that soon)."""
    notes: list[str] = []

    async def noting(pilot: Pilot) -> None:
        await scenario(pilot)
        notes.extend(notification.message for notification in pilot.app._notifications)

    play(app, noting)
    return notes


async def loaded(pilot: Pilot) -> None:
    """Wait until the review screen's loading worker is done and its messages handled."""
    await settle(pilot)
    await settle(pilot)


async def reviewed(pilot: Pilot) -> ReviewScreen:
    """The review screen shown, once its review is read."""
    screen = pilot.app.screen
    assert isinstance(screen, ReviewScreen)
    await until(pilot, lambda: screen.review is not None, "the review screen to read its review")
    await pilot.pause()
    return screen


async def approve(pilot: Pilot) -> None:
    """Approve the finding shown once the review screen has read its review."""
    await reviewed(pilot)
    await pilot.press("a")


async def export_with_defaults(pilot: Pilot) -> None:
    """Export from the review screen, taking what the export dialog proposes."""
    await pilot.press("x")
    await until(pilot, lambda: isinstance(pilot.app.screen, ExportDialog), "the export dialog")
    await pilot.press("enter")
    await settle(pilot)


def selected(pilot: Pilot) -> int | None:
    """The position of the turn selected on the review screen."""
    return pilot.app.screen.query_one(TurnList).position


def finding_text(pilot: Pilot) -> str:
    """The text of the review screen's finding panel."""
    return str(pilot.app.screen.query_one("#finding", Static).visual)


def decided(database: Path) -> dict[tuple, str]:
    """The decisions in the database's review file, by (conversation, finding key)."""
    return {key: decision.status for key, decision in read_review(review_path_for(database)).decisions.items()}
