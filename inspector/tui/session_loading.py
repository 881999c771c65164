"""The review screen's loading, in a thread worker that only posts messages: the turns are listed
as soon as the file is read, the first findings (`inspector.scan.early`) are marked and the first
flagged turn shown while the detectors run over the whole session, and the full findings then
replace them (the selection kept). A database's conversation is read on its own
(`inspector.tui.conversations.open_conversation`).
"""

from __future__ import annotations

import gc
from typing import TYPE_CHECKING

from textual import work
from textual.content import Content
from textual.message import Message
from textual.widgets import Static

from inspector.detect import detect_findings
from inspector.scan.early import early_findings
from inspector.errors import InspectorError
from inspector.model import Finding, Session
from inspector.review.review import Review
from inspector.review.review_file import PENDING
from inspector.support.safe_text import neutralise
from inspector.scan.scanner import ScanResult
from inspector.tui.conversations import decision_warnings, index_of_session, is_database, open_conversation
from inspector.tui.turn_list import TurnList

if TYPE_CHECKING:
    from inspector.tui.review_screen import ReviewScreen


class SessionLoading:
    """Mixed into `ReviewScreen`: read the file and scan it in a thread, and show what arrives."""

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
        """Reading or scanning the file failed; `error` is one line for the person."""

        def __init__(self, error: str) -> None:
            super().__init__()
            self.error = error

    @work(thread=True, exclusive=True, group="load")
    def _load(self: ReviewScreen) -> None:
        """Read the file, list its turns, run the detectors and open the review (in a thread)."""
        try:
            conversations = None
            if self.conversation is not None and is_database(self.path):
                source, session, place, conversations = open_conversation(self.path, self.conversation, self.named)
                sessions, self._place, self.session_index = [session], (place, len(conversations)), 0
            else:
                source = self.named.open(self.path)
                sessions = list(source.sessions())
                if self.conversation is not None:
                    self.session_index = index_of_session(self.path, sessions, self.conversation)
            self.post_message(self.Loaded(sessions))
            if self.session_index is not None or len(sessions) == 1:
                self.post_message(self.Early(early_findings(sessions[self.session_index or 0])))
            results = [ScanResult(session, detect_findings(session)) for session in sessions]
            review = Review.open(source, results, conversations=conversations)
            self.post_message(self.Ready(review, decision_warnings(review, conversations)))
        except InspectorError as error:
            self.post_message(self.Failed(str(error)))

    def on_session_loading_loaded(self: ReviewScreen, event: Loaded) -> None:
        """List the turns of the session shown; the findings are being scanned for."""
        self._show_session(event.sessions[self.session_index or 0])
        self.query_one("#loading-label", Static).update(Content(f"Scanning {neutralise(self.path.name)} for findings…"))

    def on_session_loading_early(self: ReviewScreen, event: Early) -> None:
        """Mark the first findings and show the first flagged turn, unless the review came first."""
        if self.review is None and event.findings:
            self._early = event.findings
            self._index_findings(event.findings)
            self.query_one(TurnList).select_position(self._flagged[0])
            self._refresh()

    def _index_findings(self: ReviewScreen, findings: list[Finding]) -> None:
        self._by_turn = {}
        for index, finding in enumerate(findings):
            self._by_turn.setdefault(finding.turn, []).append(index)
        self._flagged = sorted(self._by_turn)

    def on_session_loading_ready(self: ReviewScreen, event: Ready) -> None:
        """Take the review's findings and decisions and show the first finding still pending (a
        resumed review goes on where it was left), unless the person moved on from the turn the
        first findings chose."""
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
        shown_early = bool(self._early)
        early_first, self._early = min((finding.turn for finding in self._early), default=None), []
        self._index_findings(review.findings(self.session_index))
        self.query_one("#loading").add_class("-done")
        turns = self.query_one(TurnList)
        if self._flagged and (not shown_early or turns.position == early_first):  # else the person moved on
            self._select(*self._resume_point())
        self._refresh()
        if shown_early and turns.flagged_only:  # chosen during the scan: list the turns flagged since
            turns.set_flagged_only(True)

    def _resume_point(self: ReviewScreen) -> tuple[int, int]:
        """Where a review starts: the first flagged turn with a finding still pending, and that
        finding's number in the turn (the first flagged turn when every finding is decided)."""
        for position in self._flagged:
            for number, index in enumerate(self._by_turn[position]):
                if self._status(index) == PENDING:
                    return position, number
        return self._flagged[0], 0

    def on_session_loading_failed(self: ReviewScreen, event: Failed) -> None:
        """Say in the bar and in a notice why the file could not be opened."""
        self.query_one("#loading").add_class("-done")
        self.query_one("#bar", Static).update(Content.styled(neutralise(event.error), "bold $text-error"))
        self._tell(event.error, title="Could not open", severity="error", timeout=10)

    def _show_session(self: ReviewScreen, session: Session) -> None:
        self.session = session
        self.query_one(TurnList).show_turns(session.turns)
        self._refresh()
