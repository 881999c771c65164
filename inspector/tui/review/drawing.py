"""The review screen's drawing of what it shows (`inspector.tui.review.shown_session`): the counts bar, the
marks of the flagged turns in the turn list, and the selected turn's detail with its header (the
links between calls and results it names are found in a thread once the session is scanned), with
the places of the search's text highlighted in the list and the detail."""

from __future__ import annotations

import weakref

from textual.content import Content
from textual.widgets import Static

from inspector.model import Location, Session, Turn
from inspector.support.safe_text import neutralise
from inspector.tui.review.call_links import CallLinks, call_links
from inspector.tui.review.detail import TurnDetail
from inspector.tui.review.search import SessionSearch
from inspector.tui.review.shown_session import ShownSession
from inspector.tui.review.status_bar import ID_WIDTH, NARROW_ID_WIDTH, WIDE, status_line
from inspector.tui.review.turn_header import header_line
from inspector.tui.review.turn_list import TurnList


class ReviewDrawing:
    """Draws `shown` into the screen's widgets: `bar` (the counts), `turns` and `detail`."""

    def __init__(
        self, path: Location, shown: ShownSession, bar: Static, turns: TurnList, detail: TurnDetail, following: bool
    ) -> None:
        """`path`: the file reviewed, named in the bar; `following`: it is followed as its agent writes it."""
        self.path = path
        self.following = following
        self.shown = shown
        self._linking: weakref.ref[Session] | None = None  # the session whose links are being found
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
        shown, reviewed = self.shown, self.shown.reviewed()
        if shown.by_turn:
            self.turns.update_marks(shown.marks(shown.flagged if positions is None else positions))
        number, sessions = shown.place or (shown.session_index or 0, len(reviewed.review.results) if reviewed else 1)
        self.bar.update(
            status_line(
                self.path,
                shown.session,
                number,
                sessions,
                reviewed.review.counts(reviewed.index) if reviewed else None,
                self.turns.flagged_only,
                ID_WIDTH if self.bar.app.size.width >= WIDE else NARROW_ID_WIDTH,
                self.following,
            )
        )

    def show_detail(self) -> None:
        """Show the selected turn, its finding shown and the header above them, the search's text
        highlighted."""
        turn, view = self.shown.detail(self.turns.position)
        self.detail.show(turn, view, clean=self.shown.reviewed() is not None and not self.shown.flagged)
        self.show_header(turn)
        if self.search is not None:
            for pane in self.detail.query(Static):
                if isinstance(pane.content, Content):
                    pane.update(self.search.highlighted(pane.content))

    def highlight(self, search: SessionSearch | None) -> None:
        """Highlight the places of `search`'s text in the turn list and the detail (None: none)."""
        self.search = search
        self.turns.highlight(search)
        self.show_detail()

    def show_header(self, turn: Turn | None) -> None:
        """Show the header of `turn`: where its call's result is, once the links are found (in a
        thread, after the scan: a 200,000-turn session takes a moment that would hold keys up)."""
        links, reviewed = self.shown.links(), self.shown.reviewed()
        if links is None and reviewed is not None:
            self._start_finding_links(reviewed.session)
        self.detail.show_header(header_line(turn, links))

    def _start_finding_links(self, session: Session) -> None:
        """Find the links of `session` (the one shown) in a thread, unless that is under way."""
        if self._linking is None or self._linking() is not session:
            self._linking = weakref.ref(session)  # not held: a closed screen lets go of its session
            self.detail.run_worker(self._find_links, thread=True, group="links", exit_on_error=False)

    def _find_links(self) -> None:
        # reads the session shown rather than taking it: a finished worker stays referenced (by its
        # thread's context) and must not hold a closed screen's session
        session = self.shown.session
        if session is not None:
            self.detail.app.call_from_thread(self._links_found, session, call_links(session))

    def _links_found(self, session: Session, links: CallLinks) -> None:
        self.shown.keep_links(session, links)
        if self.shown.links() is links:
            self.show_header(self.shown.detail(self.turns.position)[0])

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
