"""The review screen's loading: read in its thread worker, which only posts messages, and shown as
they arrive. The turns are listed as soon as the file is read, the first findings
(`inspector.scan.early`) are marked and the first flagged turn shown while the detectors run over
the whole session, and the full findings then replace them (the selection kept). A database's
conversation is read on its own (`inspector.tui.conversations.open_conversation`).

A large file's session may come first as read from the file's start alone
(`inspector.sources.files.file_start`): its turns are listed and its first findings marked while
the whole file is read, then the whole session's turns replace them, the turn the person is on
kept. The start is read before the screen when the file is opened directly, and in the load
worker when it is opened from a list (its first session, or the one first flagged). The start's first findings are scanned against the tools the start defines and calls (a tool
first called later is not in it), so they may differ where a detector reads the catalogue; the
whole session's first findings replace them, and its full findings replace those.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable
from pathlib import Path

from textual.content import Content
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from inspector.detect import detect_findings
from inspector.errors import InspectorError
from inspector.model import Finding, Location, Session
from inspector.review.review import Review
from inspector.scan.early import early_findings
from inspector.scan.scanner import ScanResult
from inspector.sources.base import Source
from inspector.support.safe_text import shown_name
from inspector.tui.conversations import ReadOptions, decision_warnings, index_of_session, is_history, open_conversation
from inspector.tui.notices import Tell
from inspector.tui.review.drawing import ReviewDrawing
from inspector.tui.review.shown_session import ShownSession


class SessionLoader:
    """Reads the file and scans it (in the screen's load worker), and shows what arrives."""

    class Loaded(Message):
        """The file is read (`reading`: only its start, the rest is being read): its sessions are
        known, findings are not yet."""

        def __init__(self, sessions: list[Session], reading: bool = False) -> None:
            super().__init__()
            self.sessions = sessions
            self.reading = reading

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

    def __init__(
        self,
        path: Location,
        conversation: str | None,
        named: ReadOptions,
        shown: ShownSession,
        drawing: ReviewDrawing,
        progress: Widget,
        tell: Tell,
        source: Source | None = None,
        start: Session | None = None,
        read_start: bool = False,
    ) -> None:
        """`source`: the file's source when it is open already (else it is opened when loading);
        `start`: the session as read from the start of its file (one session), shown while the
        whole file is read; `read_start`: without one, read it first in the load worker (when
        the file is large and its start one session; not for a database's conversation, a
        session other than the file's first, or a turn asked for);
        `conversation`: the id of the session (an SQLite history's conversation) to open, if any;
        `named`: how to read the file (format, extra tools, a database's table); `progress`: the row
        saying what is being done, holding `#loading-label`; `tell(message, **options)` notifies the
        person."""
        self.path = path
        self.source = source
        self.start = start
        self.read_start = read_start
        self._early_drawn = threading.Event()  # set once the first findings posted are drawn
        self.conversation = conversation
        self.named = named
        self.shown = shown
        self.drawing = drawing
        self.progress = progress
        self._tell = tell

    def read_and_scan(self, post: Callable[[Message], object]) -> None:
        """Read the file, list its turns, run the detectors and open the review (in the load
        worker's thread), posting each step's message with `post`."""
        shown = self.shown
        try:
            conversations = None
            if self.conversation is not None and is_history(self.path):
                source, session, place, conversations = open_conversation(self.path, self.conversation, self.named)
                sessions, shown.place, shown.session_index = [session], (place, len(conversations)), 0
            else:
                start = self.start or self._start_of_file()
                if start is not None:
                    self._show_start(start, post)
                source = self.source or self.named.open(self.path)
                sessions = list(source.sessions())
                if self.conversation is not None:
                    shown.session_index = index_of_session(self.path, sessions, self.conversation)
            post(self.Loaded(sessions))
            if shown.session_index is not None or len(sessions) == 1:
                post(self.Early(early_findings(sessions[shown.session_index or 0], self.named.extra_tools)))
            extra = self.named.extra_tools
            results = [ScanResult(session, detect_findings(session, extra)) for session in sessions]
            review = Review.open(source, results, extra, conversations)
            post(self.Ready(review, decision_warnings(review, conversations)))
        except InspectorError as error:
            post(self.Failed(str(error)))

    def _start_of_file(self) -> Session | None:
        """The session as read from the start of the file when it is to be read here, it is large
        and its start is one session (else None, and the whole file is read at once)."""
        shown, named = self.shown, self.named
        if not (self.read_start and isinstance(self.path, Path) and not named.given and shown.start is None):
            return None
        if shown.session_index not in (None, 0):
            return None
        from inspector.sources.files.file_start import session_at_start  # (not needed for a small file's review)

        return session_at_start(self.path, named.format_name)

    def _show_start(self, start: Session, post: Callable[[Message], object]) -> None:
        """Post the session read from the file's start, then its first findings, and wait until
        they are drawn (a second at most) before reading the rest, which would slow the drawing."""
        post(self.Loaded([start], reading=True))
        post(self.Early(early_findings(start, self.named.extra_tools)))
        self._early_drawn.wait(1.0)

    def loaded(self, sessions: list[Session], reading: bool = False) -> None:
        """List the turns of the session shown, on the turn asked for if any (`reading`: those of
        the file's start, the rest being read); the findings are being scanned for. The first
        findings marked on the start's turns stay marked on the whole session's, and the turn
        selected stays selected."""
        shown, turns = self.shown, self.drawing.turns
        selected = turns.position if shown.session is not None else None
        self._show_session(sessions[shown.session_index or 0])
        if shown.early:
            shown.group(shown.early)
        if selected is not None:
            turns.select_position(selected)
        elif shown.start is not None:
            self.drawing.select(shown.start)
        self.drawing.refresh()
        name, turns_read = shown_name(self.path.name), len(sessions[shown.session_index or 0].turns)
        label = self.progress.query_one("#loading-label", Static)
        label.update(
            Content(
                f"Reading {name}… (its first {turns_read:,} turns listed)"
                if reading
                else f"Scanning {name} for findings…"
            )
        )

    def early(self, findings: list[Finding]) -> None:
        """Mark the first findings and show the first flagged turn, unless a turn was asked for or
        the review came first (or, when the first findings of the file's start were shown, the
        person moved on from the turn they chose)."""
        shown, turns = self.shown, self.drawing.turns
        if shown.review is None and findings:
            earlier = min((finding.turn for finding in shown.early), default=None)
            shown.early = findings
            shown.group(findings)
            if shown.start is None and (earlier is None or turns.position == earlier):
                turns.select_position(shown.flagged[0])
            self.drawing.refresh()
        self.progress.call_after_refresh(self._early_drawn.set)

    def ready(self, review: Review, warnings: list[str]) -> None:
        """Take the review's findings and decisions and show the first finding still pending (a
        resumed review goes on where it was left), unless the person moved on from the turn the
        first findings chose, or a turn was asked for."""
        # The session's objects live as long as the screen: leave them out of the collector's full
        # passes, which on a 200,000-turn session stall a key press by ~70 ms every few presses.
        gc.freeze()
        shown = self.shown
        shown.review = review
        for warning in warnings:
            self._tell(warning, title="Saved decisions", severity="warning", timeout=20)
        if shown.session_index is None:
            shown.session_index = next((i for i, r in enumerate(review.results) if r.findings), 0)
        if shown.session is not review.results[shown.session_index].session:
            self._show_session(review.results[shown.session_index].session)
        shown_early = bool(shown.early)
        early_first, shown.early = min((finding.turn for finding in shown.early), default=None), []
        shown.group(review.findings(shown.session_index))
        self.progress.add_class("-done")
        turns = self.drawing.turns
        moved_on = shown.start is not None or (shown_early and turns.position != early_first)
        if shown.flagged and not moved_on:
            self.drawing.select(*shown.resume_point())
        self.drawing.refresh()
        if shown_early and turns.flagged_only:  # chosen during the scan: list the turns flagged since
            turns.set_flagged_only(True)

    def grown(self, review: Review) -> None:
        """Show the session as it grew (`following`): its new turns listed and scanned, the new
        findings said in a notice, the list pinned to the last turn when it was selected (else the
        selection kept)."""
        shown, turns = self.shown, self.drawing.turns
        index = shown.session_index or 0
        if shown.review is None or index >= len(review.results):
            return  # still loading, or the session shown is not in the file any more
        old = shown.session.turns if shown.session is not None else ()
        pinned = not old or turns.position == old[-1].position
        selected, before = turns.position, len(shown.findings())
        shown.review = review
        self._show_session(review.results[index].session)
        findings = review.findings(index)
        shown.group(findings)
        session_turns = review.results[index].session.turns
        if pinned and session_turns:
            turns.select_position(session_turns[-1].position)
        elif selected is not None:
            turns.select_position(selected)
        self.drawing.refresh()
        added = len(findings) - before
        if added > 0:
            kinds = ", ".join(dict.fromkeys(finding.kind for finding in findings[before:]))
            self._tell(
                f"{added} new finding{'s' if added != 1 else ''} in the turns just written: {kinds}",
                title="Following",
                severity="warning",
                timeout=10,
            )

    def failed(self, error: str) -> None:
        """Say in the bar and in a notice why the file could not be opened."""
        self.progress.add_class("-done")
        self.drawing.show_error(error)
        self._tell(error, title="Could not open", severity="error", timeout=10)

    def _show_session(self, session: Session) -> None:
        self.shown.session = session
        self.drawing.turns.show_turns(session.turns)
        self.drawing.refresh()
