"""What the screens ask of the app that shows them (`inspector.tui.app.InspectorApp`), which they
cannot import (the app imports them): the executor, the files reviewed, and where a review goes
when its screen closes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from textual.app import App

from inspector.model import Location

if TYPE_CHECKING:
    from inspector.review.review import Review


@runtime_checkable
class ReviewHost(Protocol):
    """The app as its picker and review screens use it."""

    execute: str | None  # the command recovered calls may be run through (`--execute`); None: none
    reviewed_paths: set[Location]  # every file opened for review, so lists read its status again

    def review_closed(self, review: Review) -> None:
        """Remember of a review whose screen closes only whether its decisions are exported."""

    def review_ready(self, path: Location) -> None:
        """The review of `path` is open: its findings are known and shown."""

    def back_to_sessions(self) -> None:
        """Leave the review screen for the list of sessions."""


def review_host(app: App[object]) -> ReviewHost:
    """`app` as a `ReviewHost`; a `TypeError` when a screen is shown by an app that is not one."""
    if not isinstance(app, ReviewHost):
        raise TypeError(f"{type(app).__name__} cannot show the picker or the review screen")
    return app
