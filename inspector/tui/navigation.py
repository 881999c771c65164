"""The review screen's moving keys that need to know the session: the next (or previous) flagged
turn, the next search match, the next finding of a turn, the search box, and the jump between a
call and its result. They only move the selection."""

from __future__ import annotations

from bisect import bisect_left
from typing import Callable

from textual.widget import Widget
from textual.widgets import Input

from inspector.tui.drawing import ReviewDrawing
from inspector.tui.shown_session import ShownSession
from inspector.tui.turn_header import NO_LINK, link_phrase


class Navigator:
    """Moves the selection through the session shown, and keeps the search of its turn text."""

    def __init__(self, shown: ShownSession, drawing: ReviewDrawing, search_row: Widget, search_box: Input,
                 tell: Callable[..., object]) -> None:
        """`search_row`: the row holding `search_box`, shown while a search is typed or used;
        `tell(message, **options)` notifies the person."""
        self.shown = shown
        self.drawing = drawing
        self.search_row = search_row
        self.search_box = search_box
        self._tell = tell
        self._search: str | None = None

    def next(self, forward: bool) -> None:
        """Next (or previous) flagged turn; the next search match while a search is active."""
        if self._search:
            position = self._match(forward)
            if position is None:
                self._tell(f"No turn contains {self._search!r}", severity="warning")
                return
        else:
            position = self.drawing.turns.next_position(self.shown.flagged, forward)
            if position is None:
                self._tell("Nothing flagged in this session")
                return
        self.drawing.select(position)

    def step_finding(self, step: int) -> None:
        """Show the next (`step` 1) or previous (-1) finding of the selected turn."""
        if self.shown.step_finding(self.drawing.turns.position, step):
            self.drawing.show_detail()

    def other_end(self) -> None:
        """From a call's turn to the turn holding its result, and from a result's to its call's;
        says so when there is none."""
        position, links = self.drawing.turns.position, self.shown.links()
        if position is None:
            return
        if links is None:
            self._tell("Still matching the calls with their results: try again in a moment", severity="warning")
            return
        targets = links.other_end(position)
        if targets:
            self.drawing.select(targets[0])
            return
        phrase = link_phrase(self.shown.session.turn_at(position), links)
        self._tell(phrase[:1].upper() + phrase[1:] if phrase else NO_LINK, severity="warning")

    def open_search(self) -> Input:
        """Show the search box, holding the search in use; returns it, to be focused once drawn."""
        self.search_row.add_class("-open")
        self.search_box.value = self._search or ""
        return self.search_box

    def search(self, text: str) -> None:
        """Search for `text` (nothing: clear the search) and select the first match."""
        self._search = text or None
        self.search_row.set_class(bool(self._search), "-open")  # stays in view while it is used
        self.drawing.turns.focus()
        if self._search:
            self.next(True)

    def close_search(self) -> bool:
        """Close the search box and clear the search; False when it was not open."""
        if not self.search_row.has_class("-open"):
            return False
        self.search_row.remove_class("-open")
        self._search = None
        self.drawing.turns.focus()
        return True

    def _match(self, forward: bool) -> int | None:
        """The next turn (wrapping round) whose text contains the search, ignoring case."""
        needle, turns = self._search.casefold(), self.shown.session.turns
        here = bisect_left(turns, self.drawing.turns.position or 0, key=lambda turn: turn.position)
        steps = range(1, len(turns) + 1)
        order = ((here + step) % len(turns) for step in steps) if forward else ((here - step) % len(turns) for step in steps)
        return next((turns[i].position for i in order if needle in turns[i].text.casefold()), None)
