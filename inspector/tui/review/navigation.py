"""The review screen's moving keys that need to know the session: the next (or previous) flagged
turn, the next search match, the next finding of a turn, the search box with its count of
matching turns, and the jump between a call and its result. They only move the selection (and say
what the search highlights)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from textual.content import Content
from textual.widget import Widget
from textual.widgets import Input, Static

from inspector.model import Turn
from inspector.support.safe_text import neutralise
from inspector.tui.notices import Tell
from inspector.tui.review.drawing import ReviewDrawing
from inspector.tui.review.search import SessionSearch
from inspector.tui.review.shown_session import ShownSession
from inspector.tui.review.turn_header import NO_LINK, link_phrase

SEARCHED_AT_ONCE = 20_000  # turns: a longer session is searched in a thread (200,000 take about a second)


class Navigator:
    """Moves the selection through the session shown, and keeps the search of its turns."""

    def __init__(
        self,
        shown: ShownSession,
        drawing: ReviewDrawing,
        search_row: Widget,
        search_box: Input,
        tell: Tell,
        search_in_thread: Callable[[str, Sequence[Turn]], object],
    ) -> None:
        """`search_row`: the row holding `search_box` and the count `#search-count`, shown while a
        search is typed or used; `tell(message, **options)` notifies the person;
        `search_in_thread(text, turns)` starts the screen's search worker, which hands the
        `SessionSearch` to `found`."""
        self.shown = shown
        self.drawing = drawing
        self.search_row = search_row
        self.search_box = search_box
        self._count = search_row.query_one("#search-count", Static)
        self._tell = tell
        self._search_in_thread = search_in_thread
        self._search: SessionSearch | None = None
        self._searching: str | None = None  # the text of the search under way

    def next(self, forward: bool) -> None:
        """Next (or previous) flagged turn; the next search match while a search is active."""
        if self._searching is not None:
            self._tell("Still searching the turns", severity="warning")
            return
        here = self.drawing.turns.position
        if self._search:
            position, what = self._search.after(here, forward), "match"
            if position is None:
                self._tell(f"No turn contains {neutralise(repr(self._search.text))}", severity="warning")
                return
        else:
            position, what = self.drawing.turns.next_position(self.shown.flagged, forward), "flagged turn"
            if position is None:
                self._tell("Nothing flagged in this session")
                return
        if here is not None and position == here:
            self._tell(f"This is the only {what}")
        elif here is not None and (position < here if forward else position > here):
            self._tell(f"Wrapped round to the {'first' if forward else 'last'} {what}")
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
        turn = self.shown.turn_at(position)
        phrase = link_phrase(turn, links) if turn is not None else None
        self._tell(phrase[:1].upper() + phrase[1:] if phrase else NO_LINK, severity="warning")

    def open_search(self) -> Input:
        """Show the search box, holding the search in use; returns it, to be focused once drawn."""
        self.search_row.add_class("-open")
        self.search_box.value = self._search.text if self._search else ""
        return self.search_box

    def search(self, text: str) -> None:
        """Search the turns for `text` (nothing: clear the search); a long session in a thread."""
        session = self.shown.session
        self.drawing.turns.focus()
        if not text or session is None:
            self._searching = None
            self.found(None)
        elif len(session.turns) <= SEARCHED_AT_ONCE:
            self._searching = None
            self.found(SessionSearch(text, session.turns))
        else:
            self._searching = text
            self._count.update(Content("searching…"))
            self._search_in_thread(text, session.turns)

    def found(self, search: SessionSearch | None) -> None:
        """Highlight what `search` found (None: no search), count the turns holding it and select
        the first after the selected turn; a search that another has replaced meanwhile is dropped."""
        if not self.search_row.is_attached:  # the screen closed while the thread searched
            return
        if self._searching is not None:
            if search is None or search.text != self._searching:
                return
            self._searching = None
        self._search = search
        self.search_row.set_class(search is not None, "-open")  # stays in view while it is used
        self.drawing.highlight(search)
        self.selected(self.drawing.turns.position)
        if search is not None:
            self.next(True)

    def selected(self, position: int | None) -> None:
        """The turn at `position` is selected: say which of the matching turns it is ('3/17')."""
        self._count.update(Content(self._search.count(position) if self._search else ""))

    def close_search(self) -> bool:
        """Close the search box and clear the search; False when it was not open."""
        if not self.search_row.has_class("-open"):
            return False
        self.search_row.remove_class("-open")
        self._search, self._searching = None, None
        self.drawing.highlight(None)
        self.drawing.turns.focus()
        return True
