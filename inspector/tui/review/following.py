"""Following a session file while its agent writes it (`inspector --follow PATH`): the review
screen grows as turns are appended, the new turns scanned as they land, new findings announced,
the list pinned to the last turn unless the person moved away from it.

The follower waits in the screen's follow worker (a thread) for the file system to say the file
changed (`watchfiles`: no polling, no work while the file is idle), reads only what was appended
(`GrowingFile`; a rewritten file is read again), and posts the grown session's review. Reading the
session again from the bytes already in memory and scanning it take a fraction of a second for a
session of thousands of turns; a file half written (a JSON document not yet whole) is read at its
next change. Decisions are saved as they are made, so the grown review resumes them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from textual.message import Message
from watchfiles import Change, watch

from inspector.detect import detect_findings
from inspector.errors import InspectorError
from inspector.review.review import Review
from inspector.scan.scanner import ScanResult
from inspector.sources.files.growing_file import GrowingFile, Growth
from inspector.sources.files.session_file import SessionFile
from inspector.tui.conversations import ReadOptions

DEBOUNCE_MS = 100  # changes this close together are read once


class SessionFollower:
    """Reads the file again as it grows (in the screen's follow worker) and posts what it holds."""

    class Grown(Message):
        """The file grew (or was rewritten): its sessions scanned again, as a review."""

        def __init__(self, review: Review) -> None:
            super().__init__()
            self.review = review

    def __init__(self, path: Path, named: ReadOptions) -> None:
        self.path = Path(path)
        self.named = named
        self.stop = threading.Event()

    def follow(self, post: Callable[[Message], object]) -> None:
        """Until `stop` is set: after each change of the file, post its review when it changed."""
        growing = GrowingFile(self.path)
        self._read(growing, post)  # what was written since the screen read the file
        folder, name = self.path.parent, self.path.name
        for _ in watch(
            folder,
            watch_filter=lambda change, changed: change is not Change.deleted and Path(changed).name == name,
            debounce=DEBOUNCE_MS,
            stop_event=self.stop,
            recursive=False,
            raise_interrupt=False,
        ):
            self._read(growing, post)

    def _read(self, growing: GrowingFile, post: Callable[[Message], object]) -> None:
        try:
            if growing.grow() is Growth.NONE:
                return
            source = SessionFile.of_document(growing.document(), growing.state(), self.named.format_name)
            extra = self.named.extra_tools
            results = [ScanResult(session, detect_findings(session, extra)) for session in source.sessions()]
        except (InspectorError, OSError):  # half written, or moved away for a moment: its next change
            return
        post(self.Grown(Review.open(source, results, extra)))
