"""The main screen: the turn list above the selected turn's detail, and the review's keys.

The screen lays the widgets out and draws what the review says of the selected turn: its marks,
the counts bar and the finding's detail. Its other parts are mixed in: loading
(`inspector.tui.session_loading`, the turns listed before the findings are known), moving
(`inspector.tui.navigation`), deciding and exporting (`inspector.tui.decisions`) and running
recovered calls (`inspector.tui.execution`). Decisions wait for the full scan; every decision goes
through `inspector.review.review.Review`, which saves the review file at once.

A conversation of an SQLite history is opened by its id: only that conversation is read and
scanned (`inspector.tui.conversations`); its decisions are kept by its id in the database's
review file. Decisions in that file that can no longer be applied (their conversation is gone
from the database, or their finding from the conversation), or that an earlier version kept by
place, are reported when it opens.
"""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Input, ProgressBar, Static

from inspector.model import SEVERITIES, Finding, Session
from inspector.review.preview import preview
from inspector.review.review import Review
from inspector.review.review_file import APPROVED, EDITED, PENDING, SKIPPED
from inspector.support.safe_text import neutralise
from inspector.tui.commands import ScreenKeys
from inspector.tui.conversations import NamedTable
from inspector.tui.decisions import DecisionActions
from inspector.tui.detail import FindingView, TurnDetail
from inspector.tui.execution import ExecuteAction
from inspector.tui.navigation import NavigationActions
from inspector.tui.session_loading import SessionLoading
from inspector.tui.status_bar import status_line
from inspector.tui.turn_list import TurnList, TurnMark


class ReviewScreen(SessionLoading, NavigationActions, DecisionActions, ExecuteAction, Screen[None]):
    """Step through one session's flagged turns and decide on each finding."""

    COMMANDS = {ScreenKeys}
    BINDINGS = [  # in the footer's order, the keys a review needs most first (an 80-column footer shows
        # the first nine); short descriptions fit the footer; tooltips are what help and the palette show
        Binding("question_mark", "help", "Help", tooltip="Show every key"),
        Binding("q", "app.quit", "Quit", tooltip="Quit (asks when decisions are not exported)"),
        Binding("n", "next(True)", "Next", tooltip="Next flagged turn (next match while searching)"),
        Binding("N", "next(False)", "Prev", tooltip="Previous flagged turn (previous match while searching)",
                key_display="N"),
        Binding("a", "approve", "Approve", tooltip="Approve the fix shown"),
        Binding("s", "skip", "Skip", tooltip="Skip this finding: leave the turn as it is"),
        Binding("e", "edit", "Edit", tooltip="Edit the fix (text and call arguments)"),
        Binding("u", "undo", "Undo", tooltip="Undo the last decision (many levels)"),
        Binding("x", "export", "Export", tooltip="Export the repaired session with the approved fixes"),
        Binding("A", "approve_all", "All of kind", tooltip="Approve every pending finding of this kind",
                key_display="A"),
        Binding("f", "flagged_only", "Flagged", tooltip="Show only flagged turns, or all"),
        Binding("slash", "search", "Search", tooltip="Search turn text"),
        Binding("y", "copy", "Copy", tooltip="Copy the recovered arguments"),
        Binding("X", "execute", "Execute", key_display="X", show=False,
                tooltip="Run the approved fix's recovered calls through your executor (asks first; only when "
                        "started as: inspector PATH --execute CMD)"),
        Binding("j", "move(1)", "Down", tooltip="Next turn (or down arrow)", show=False),
        Binding("k", "move(-1)", "Up", tooltip="Previous turn (or up arrow)", show=False),
        Binding("right_square_bracket", "finding(1)", "Next finding", tooltip="Next finding of this turn",
                show=False),
        Binding("left_square_bracket", "finding(-1)", "Prev finding", tooltip="Previous finding of this turn",
                show=False),
        Binding("escape", "back", "Back", tooltip="Clear the search, or go back to the sessions", show=False),
    ]
    DEFAULT_CSS = """
    ReviewScreen #bar { height: auto; max-height: 3; background: $panel; padding: 0 0 0 1; }
    ReviewScreen #loading { height: 1; }
    ReviewScreen #loading.-done { display: none; }
    ReviewScreen #loading Static { width: auto; padding: 0 1; }
    ReviewScreen TurnList { height: 35%; }
    ReviewScreen #search-row { height: 1; display: none; background: $panel; }
    ReviewScreen #search-row.-open { display: block; }
    ReviewScreen #search-row Static { width: auto; padding: 0 1; color: $text-accent; }
    ReviewScreen #search { width: 1fr; }
    """

    def __init__(self, path: Path, session: int | None = None, conversation: str | None = None,
                 named: NamedTable = NamedTable()) -> None:
        """`session`: the index of the session to show among the file's (None: the first flagged);
        `conversation`: instead, the id of the session (an SQLite history's conversation) to open;
        `named`: the database's table of messages, when the person named it (`--table`/`--map`)."""
        super().__init__()
        self.path = path
        self.session_index = session
        self.conversation = conversation
        self.named = named
        self._place: tuple[int, int] | None = None  # a database conversation's number, and how many there are
        self.session: Session | None = None
        self.review: Review | None = None
        self._early: list[Finding] = []  # the first findings, until the review is ready
        self._by_turn: dict[int, list[int]] = {}  # turn position -> indices of its findings
        self._flagged: list[int] = []  # flagged positions, sorted
        self._finding_number = 0
        self._wanted: tuple[int, int] | None = None  # (position, finding number) to show next
        self._search: str | None = None
        self._under_way: set[str] = set()  # the writes running in a thread (decisions.EXPORT, EXECUTE)

    def compose(self) -> ComposeResult:
        yield Static(id="bar")
        with Horizontal(id="loading"):
            yield Static(Content(f"Loading {neutralise(self.path.name)}…"), id="loading-label")
            yield ProgressBar(total=None, show_eta=False, show_percentage=False)
        yield TurnList(id="turns")
        yield TurnDetail(id="detail")
        with Horizontal(id="search-row"):
            yield Static(Content("Search turn text (Enter finds · then n / N · Esc clears):"))
            yield Input(compact=True, id="search")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one(TurnList).focus()
        self._load()

    # ---- what is shown -------------------------------------------------------------------------

    def _findings(self) -> list[Finding]:
        """The session's findings: the review's, or the first ones while the scan runs."""
        return self.review.findings(self.session_index) if self.review is not None else self._early

    def _status(self, index: int) -> str:
        return self.review.status(self.session_index, index) if self.review is not None else PENDING

    def _marks(self, positions: list[int]) -> dict[int, TurnMark]:
        """The mark of each flagged turn: its kinds, worst severity and combined status."""
        findings, marks = self._findings(), {}
        for position in positions:
            indices = self._by_turn[position]
            statuses = {self._status(i) for i in indices}
            status = next((s for s in (PENDING, EDITED, APPROVED) if s in statuses), SKIPPED)
            kinds = ",".join(dict.fromkeys(findings[i].kind for i in indices))
            severity = min((findings[i].severity for i in indices), key=SEVERITIES.index)
            marks[position] = TurnMark(kinds, severity, status)
        return marks

    def _refresh(self, positions: list[int] | None = None) -> None:
        """Redraw the counts bar, the marks of `positions` (all when None) and the detail."""
        self._redraw_marks(positions)
        self._show_detail()

    def _redraw_marks(self, positions: list[int] | None = None) -> None:
        """Redraw the counts bar and the marks of `positions` (all when None), not the detail."""
        review = self.review
        if self._by_turn:
            self.query_one(TurnList).update_marks(self._marks(self._flagged if positions is None else positions))
        number, sessions = self._place or (self.session_index or 0, len(review.results) if review else 1)
        self.query_one("#bar", Static).update(status_line(
            self.path, self.session, number, sessions,
            review.counts(self.session_index) if review else None, self.query_one(TurnList).flagged_only))

    def _current(self) -> int | None:
        """The index of the finding shown in the detail, if the selected turn is flagged."""
        indices = self._by_turn.get(self.query_one(TurnList).position, [])
        return indices[self._finding_number % len(indices)] if indices else None

    def _show_detail(self) -> None:
        position = self.query_one(TurnList).position
        turn = self.session.turn_at(position) if self.session and position is not None else None
        index = self._current()
        view = None
        if index is not None and turn is not None:
            indices, finding = self._by_turn[position], self._findings()[index]
            review, s = self.review, self.session_index
            fix = review.decided_fix(s, index) if review is not None else finding.fix
            view = FindingView(finding, preview(finding, turn, fix), self._status(index),
                               self._finding_number % len(indices) + 1, len(indices),
                               review.executions(s, index) if review is not None else ())
        self.query_one(TurnDetail).show(turn, view)

    @on(TurnList.Selected)
    def _selected(self, event: TurnList.Selected) -> None:
        wanted, self._wanted = self._wanted, None
        self._finding_number = wanted[1] if wanted and wanted[0] == event.position else 0
        self._show_detail()

    def _select(self, position: int, number: int = 0) -> None:
        """Select the turn at `position` and its finding `number`; the detail is shown on `Selected`."""
        self._wanted = (position, number)
        turns = self.query_one(TurnList)
        flagged_only = turns.flagged_only
        turns.select_position(position)
        if turns.flagged_only != flagged_only:  # an unflagged turn was chosen: every turn is listed again
            self._redraw_marks([])
