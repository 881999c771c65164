"""The review screen's drawing of what it shows (`inspector.tui.shown_session`): the counts bar, the
marks of the flagged turns in the turn list, and the selected turn's detail, with the places of
the search's text highlighted in both."""

from __future__ import annotations

from pathlib import Path

from textual.content import Content
from textual.widgets import Static

from inspector.support.safe_text import neutralise
from inspector.tui.detail import TurnDetail
from inspector.tui.search import SessionSearch
from inspector.tui.shown_session import ShownSession
from inspector.tui.status_bar import status_line
from inspector.tui.turn_list import TurnList


class ReviewDrawing:
    """Draws `shown` into the screen's widgets: `bar` (the counts), `turns` and `detail`."""

    def __init__(self, path: Path, shown: ShownSession, bar: Static, turns: TurnList, detail: TurnDetail) -> None:
        """`path`: the file reviewed, named in the bar."""
        self.path = path
        self.shown = shown
        self.bar = bar
        self.turns = turns
        self.detail = detail
        self.search: SessionSearch | None = None

    def current(self) -> int | None:
        """The index of the finding shown in the detail, if the selected turn is flagged."""
        return self.shown.current(self.turns.position)

    def refresh(self, positions: list[int] | None = None) -> None:
        """Redraw the counts bar, the marks of `positions` (all when None) and the detail."""
        self.redraw_marks(positions)
        self.show_detail()

    def redraw_marks(self, positions: list[int] | None = None) -> None:
        """Redraw the counts bar and the marks of `positions` (all when None), not the detail."""
        shown, review = self.shown, self.shown.review
        if shown.by_turn:
            self.turns.update_marks(shown.marks(shown.flagged if positions is None else positions))
        number, sessions = shown.place or (shown.session_index or 0, len(review.results) if review else 1)
        self.bar.update(status_line(
            self.path, shown.session, number, sessions,
            review.counts(shown.session_index) if review else None, self.turns.flagged_only))

    def show_detail(self) -> None:
        """Show the selected turn and its finding shown, the search's text highlighted."""
        self.detail.show(*self.shown.detail(self.turns.position))
        if self.search is not None:
            for pane in self.detail.query(Static):
                if isinstance(pane.content, Content):
                    pane.update(self.search.highlighted(pane.content))

    def highlight(self, search: SessionSearch | None) -> None:
        """Highlight the places of `search`'s text in the turn list and the detail (None: none)."""
        self.search = search
        self.turns.highlight(search)
        self.show_detail()

    def select(self, position: int, number: int = 0) -> None:
        """Select the turn at `position` and its finding `number`; the detail is shown on the turn
        list's `Selected` (`selected`)."""
        self.shown.want(position, number)
        flagged_only = self.turns.flagged_only
        self.turns.select_position(position)
        if self.turns.flagged_only != flagged_only:  # an unflagged turn was chosen: every turn is listed again
            self.redraw_marks([])

    def selected(self, position: int | None) -> None:
        """The turn at `position` is selected: show it with the finding wanted there."""
        self.shown.selected(position)
        self.show_detail()

    def show_error(self, error: str) -> None:
        """Say in the bar why the file could not be opened."""
        self.bar.update(Content.styled(neutralise(error), "bold $text-error"))
