"""The main screen: the turn list above the selected turn's detail, and the review's keys.

Loading runs in a thread worker that only posts messages: the turns are listed as soon as the
file is read, the first findings (`inspector.early_scan`) are marked and the first flagged turn
shown while the detectors run over the whole session, and the full findings then replace them
(the selection kept). Decisions wait for the full scan. Every decision goes
through `inspector.review.Review`, which saves the review file at once.

A conversation of an SQLite history is opened by its id: only that conversation is read and
scanned (`inspector.tui.conversations`); its decisions are kept by its id in the database's
review file. Decisions in that file that can no longer be applied (their conversation is gone
from the database, or their finding from the conversation), or that an earlier version kept by
place, are reported when it opens.
"""

from __future__ import annotations

import gc
from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Input, ProgressBar, Static

from inspector.detectors import detect_findings
from inspector.early_scan import early_findings
from inspector.errors import InspectorError
from inspector.formats import load_sessions
from inspector.model import SEVERITIES, Finding, Session
from inspector.preview import preview
from inspector.review import APPROVED, EDITED, PENDING, SKIPPED, Review
from inspector.safe_text import neutralise
from inspector.scan import ScanResult
from inspector.tui.commands import ScreenKeys
from inspector.tui.conversations import (NamedTable, decision_warnings, index_of_session, is_database,
                                         open_conversation)
from inspector.tui.decisions import DecisionActions
from inspector.tui.execution import ExecuteAction
from inspector.tui.navigation import NavigationActions
from inspector.tui.detail import FindingView, TurnDetail
from inspector.tui.status_bar import status_line
from inspector.tui.turn_list import TurnList, TurnMark


class ReviewScreen(NavigationActions, DecisionActions, ExecuteAction, Screen[None]):
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
    ReviewScreen #bar { height: auto; max-height: 2; background: $panel; padding: 0 0 0 1; }
    ReviewScreen #loading { height: 1; }
    ReviewScreen #loading.-done { display: none; }
    ReviewScreen #loading Static { width: auto; padding: 0 1; }
    ReviewScreen TurnList { height: 35%; }
    ReviewScreen #search-row { height: 1; display: none; background: $panel; }
    ReviewScreen #search-row.-open { display: block; }
    ReviewScreen #search-row Static { width: auto; padding: 0 1; color: $text-accent; }
    ReviewScreen #search { width: 1fr; }
    """

    class Loaded(Message):
        """The file is read: its sessions are known, findings are not yet."""

        def __init__(self, sessions: list[Session]) -> None:
            super().__init__()
            self.sessions = sessions

    class Early(Message):
        """The first findings of the session shown, known before the whole session is scanned."""

        def __init__(self, findings: list[Finding]) -> None:
            super().__init__()
            self.findings = findings

    class Ready(Message):
        """The detectors have run and the review (with any saved decisions) is open; `warnings` say
        which saved decisions may be misplaced or can no longer be applied."""

        def __init__(self, review: Review, warnings: list[str]) -> None:
            super().__init__()
            self.review = review
            self.warnings = warnings

    class Failed(Message):
        """Loading or exporting failed; `error` is one line for the person."""

        def __init__(self, error: str) -> None:
            super().__init__()
            self.error = error

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

    # ---- loading -------------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="load")
    def _load(self) -> None:
        """Read the file, list its turns, run the detectors and open the review (in a thread)."""
        try:
            conversations = None
            if self.conversation is not None and is_database(self.path):
                session, place, conversations = open_conversation(self.path, self.conversation, self.named)
                sessions, self._place, self.session_index = [session], (place, len(conversations)), 0
            else:
                sessions = load_sessions(self.path)
                if self.conversation is not None:
                    self.session_index = index_of_session(self.path, sessions, self.conversation)
            self.post_message(self.Loaded(sessions))
            if self.session_index is not None or len(sessions) == 1:
                self.post_message(self.Early(early_findings(sessions[self.session_index or 0])))
            results = [ScanResult(session, detect_findings(session)) for session in sessions]
            review = Review.open(self.path, results, conversations=conversations)
            self.post_message(self.Ready(review, decision_warnings(review, conversations)))
        except InspectorError as error:
            self.post_message(self.Failed(str(error)))

    def on_review_screen_loaded(self, event: Loaded) -> None:
        self._show_session(event.sessions[self.session_index or 0])
        self.query_one("#loading-label", Static).update(Content(f"Scanning {neutralise(self.path.name)} for findings…"))

    def on_review_screen_early(self, event: Early) -> None:
        if self.review is None and event.findings:
            self._early = event.findings
            self._index_findings(event.findings)
            self.query_one(TurnList).select_position(self._flagged[0])
            self._refresh()

    def _index_findings(self, findings: list[Finding]) -> None:
        self._by_turn = {}
        for index, finding in enumerate(findings):
            self._by_turn.setdefault(finding.turn, []).append(index)
        self._flagged = sorted(self._by_turn)

    def on_review_screen_ready(self, event: Ready) -> None:
        # The session's objects live as long as the screen: leave them out of the collector's full
        # passes, which on a 200,000-turn session stall a key press by ~70 ms every few presses.
        gc.freeze()
        self.review = review = event.review
        self.app.reviews[review.path] = review
        for warning in event.warnings:
            self._tell(warning, title="Saved decisions", severity="warning", timeout=20)
        if self.session_index is None:
            self.session_index = next((i for i, r in enumerate(review.results) if r.findings), 0)
        if self.session is not review.results[self.session_index].session:
            self._show_session(review.results[self.session_index].session)
        shown_early, self._early = bool(self._early), []
        self._index_findings(review.findings(self.session_index))
        self.query_one("#loading").add_class("-done")
        turns = self.query_one(TurnList)
        if self._flagged and not shown_early:  # else the person may have moved on: keep their turn
            turns.select_position(self._flagged[0])
        self._refresh()
        if shown_early and turns.flagged_only:  # chosen during the scan: list the turns flagged since
            turns.set_flagged_only(True)

    def on_review_screen_failed(self, event: Failed) -> None:
        self.query_one("#loading").add_class("-done")
        self.query_one("#bar", Static).update(Content.styled(neutralise(event.error), "bold $text-error"))
        self._tell(event.error, title="Could not open", severity="error", timeout=10)

    def _show_session(self, session: Session) -> None:
        self.session = session
        self.query_one(TurnList).show_turns(session.turns)
        self._refresh()

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
