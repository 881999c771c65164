"""A decision on a kind in every conversation of a history (`A` / `S`, then "every
conversation"): the run that the bulk worker's thread advances conversation by conversation, and
the row above the turn list that shows how far it got ("120 of 4,000 conversations read") while
Escape cancels it.

A run is cancelled between two conversations: those read by then are decided, each whole (its
pending findings of the kind all decided, in one undo step with the others), the rest not at all.
"""

from __future__ import annotations

import threading

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.timer import Timer
from textual.widgets import ProgressBar, Static

SHOWN_EVERY = 0.1  # seconds between two redraws of the progress row


class EveryConversation:
    """One decision on a kind over every conversation of a history: what it gives to which kind,
    how many conversations there are and how many were read, and whether it was cancelled (read
    in the worker's thread, set in the app's)."""

    def __init__(self, kind: str, status: str, verb: str) -> None:
        """Give `status` (APPROVED or SKIPPED) to the pending `kind` findings; `verb` names it
        ("Approve", "Skip", "Acknowledge")."""
        self.kind = kind
        self.status = status
        self.verb = verb
        self.total: int | None = None  # the history's conversations, once counted
        self.read = 0  # the conversations read so far, each whole
        self._cancelled = threading.Event()

    def cancel(self) -> None:
        """Stop before the next conversation is read."""
        self._cancelled.set()

    @property
    def cancelled(self) -> bool:
        """Whether the person cancelled the run."""
        return self._cancelled.is_set()

    def progress(self) -> str:
        """'Acknowledge every pending tool-error finding: 120 of 4,000 conversations read (Esc cancels)'."""
        if self.total is None:
            return f"{self.verb} every pending {self.kind} finding: counting the conversations (Esc cancels)"
        return (
            f"{self.verb} every pending {self.kind} finding: {self.read:,} of {max(self.total, self.read):,} "
            "conversations read (Esc cancels)"
        )


class BulkProgress(Horizontal):
    """The row showing a run's progress, hidden when none is under way."""

    DEFAULT_CSS = """
    BulkProgress { height: 1; display: none; }
    BulkProgress.-running { display: block; }
    BulkProgress Static { width: auto; padding: 0 1; }
    """

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self._run: EveryConversation | None = None
        self._timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="bulk-label")
        yield ProgressBar(total=None, show_eta=False, id="bulk-bar")

    def follow(self, run: EveryConversation) -> None:
        """Show `run`'s progress, redrawn as the worker reads on, until `stop`."""
        self._run = run
        self.add_class("-running")
        self._show()
        self._timer = self.set_interval(SHOWN_EVERY, self._show)

    def stop(self) -> None:
        """Hide the row: the run has ended."""
        if self._timer is not None:
            self._timer.stop()
        self._run = self._timer = None
        self.remove_class("-running")

    def _show(self) -> None:
        run = self._run
        if run is None:
            return
        self.query_one("#bulk-label", Static).update(Content(run.progress()))
        self.query_one("#bulk-bar", ProgressBar).update(total=run.total, progress=run.read)
