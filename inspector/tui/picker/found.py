"""The picker of the person's own sessions (`inspector` with no path): one row per session file
found by `inspector.sources.discovery`, newest first, with its tool, project and date at once;
the turns, findings, rates and review status of each file the search index holds as it is now
(read before by the picker or by a search) at once too, without reading it.

Every file is listed at once, its rows drawn a page at a time (as the cursor nears the last one
drawn), so thousands of files list at once. A thread worker then scans the other files in the
listing's order and fills in each one's turn count, findings by kind and review status, about
once a second, keeping what it read in the index for the next time (`kept_files`); it pauses
while another screen is shown and stops when the picker closes. A file that cannot be read says
why on its row (and in full on Enter). `llm`'s database is one row: Enter lists its
conversations in a picker of their own (Esc comes back), where they are scanned. A session whose
subagents' transcripts its tool keeps beside it (`discovery.subagents_of`) is one row counting
their turns and findings too (its review status is its own file's): Enter lists its sessions and
theirs in a picker of their own.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from textual import work
from textual.binding import Binding
from textual.worker import get_current_worker

from inspector.errors import InspectorError
from inspector.support.safe_text import neutralise, shown_name
from inspector.tui.conversations import ReadOptions, listing
from inspector.tui.picker.columns import FINDINGS_FIRST, ColumnSpec
from inspector.tui.picker.kept_files import open_kept_files
from inspector.tui.picker.review_status import SavedReview, saved_review_of
from inspector.tui.picker.rows import (
    Scanned,
    database_note,
    found_row,
    kept_file,
    row_key,
    scanned_file,
    short_reason,
    unreadable,
    with_subagents,
)
from inspector.tui.picker.screen import FILL_EVERY, PickerScreen
from inspector.tui.picker.view import LISTED

if TYPE_CHECKING:
    from inspector.scan.summary import SessionSummary
    from inspector.search.fingerprint import Fingerprint
    from inspector.search.scan_cache import ScanCache
    from inspector.sources.base import Source
    from inspector.sources.discovery import FoundSession


class FoundPicker(PickerScreen):
    """Choose one of the person's own sessions to review."""

    COLUMNS = (
        ColumnSpec("tool", "Tool", 6, 5),
        ColumnSpec("project", "Project", 12, 1),
        ColumnSpec("date", "Date", 16, 2),
        ColumnSpec("turns", "Turns", 5, 6),
        ColumnSpec("findings", "Findings by kind", 12, 3, 48, first=FINDINGS_FIRST),
        ColumnSpec("status", "Status", 8, 4),
    )
    SORTS = (LISTED, "findings", "status", "turns", "project", "tool")

    def __init__(self, found: Sequence[FoundSession], title: str, named: ReadOptions = ReadOptions()) -> None:
        """`named`: how to read the sessions (the extra tool definitions of `--tools`)."""
        super().__init__([session.path for session in found], title, named)
        self._found = {row_key(session): session for session in found}  # row key -> the file
        self._errors: dict[str, str] = {}  # row key -> why the file cannot be read, once scanned

    def on_mount(self) -> None:
        """List every file (Textual then calls the pickers' own `on_mount`: the scan starts)."""
        home = Path.home()
        self.table.add(found_row(found, home) for found in self._found.values())

    @work(thread=True, exclusive=True)
    def _scan(self) -> None:
        """Fill in the files the search index holds as they are, then scan each other one in the
        listing's order while the picker is shown; hand over the values in batches."""
        drawn = threading.Event()
        self.app.call_from_thread(self.call_after_refresh, drawn.set)
        drawn.wait(1.0)  # the first rows are on screen before the scan competes with drawing them
        worker = get_current_worker()
        kept = open_kept_files(self.named)
        try:
            unread = self._fill_from_index(kept) if kept is not None else list(self._found.items())
            filled: list[tuple[str, Scanned, str, SavedReview | None]] = []
            sent = time.monotonic()
            for key, found in unread:
                while not self._shown.wait(0.1):  # another screen is shown: it gets the machine
                    if worker.is_cancelled:
                        return
                if worker.is_cancelled:
                    return
                filled.append((key, *self._read(found, kept)))
                if time.monotonic() - sent > FILL_EVERY:
                    self.app.call_from_thread(self._fill_found, filled)
                    filled, sent = [], time.monotonic()
            if filled:
                self.app.call_from_thread(self._fill_found, filled)
            self.app.call_from_thread(self._scan_done)
        finally:
            if kept is not None:
                kept.close()

    def _fill_from_index(self, kept: ScanCache) -> list[tuple[str, FoundSession]]:
        """Fill in the rows of the files the index holds as they are now (not a history's: Enter
        lists its conversations); the others, to be read, in the listing's order."""
        from inspector.sources.discovery import agent_named  # loaded already: it found the sessions

        filled: list[tuple[str, Scanned, str, SavedReview | None]] = []
        unread = []
        for key, found in self._found.items():
            scanned = None if agent_named(found.tool).history else _kept_with_subagents(kept, found)
            if scanned is None:
                unread.append((key, found))
            else:
                filled.append((key, scanned, "", saved_review_of(found.path)))
        if filled:
            self.app.call_from_thread(self._fill_found, filled)
        return unread

    def _read(self, found: FoundSession, kept: ScanCache | None) -> tuple[Scanned, str, SavedReview | None]:
        """The file's values (a history's: its messages and conversations, counted), the error that
        stopped reading it ("" when none), and its saved review; what was read of a session file
        is kept in the index (`kept`) for the next time."""
        try:
            taken = kept.fingerprint(found.path) if kept is not None else None  # before it is read
            source = self.named.open(found.path)
            if source.streams:
                return database_note(*listing(source)), "", None
            scanned = self._scanned(found.path, source, kept, taken)
        except InspectorError as error:
            return unreadable(short_reason(str(error), found.path)), str(error), None
        from inspector.sources.discovery import subagents_of  # loaded already: it found the sessions

        subagents = [self._subagent(path, kept) for path in subagents_of(found)]
        return with_subagents(scanned, subagents), "", saved_review_of(found.path)

    def _scanned(self, path: Path, source: Source, kept: ScanCache | None, taken: Fingerprint | None) -> Scanned:
        """The values of the file at `path` read as `source`, kept in the index (`kept`) when its
        fingerprint was `taken` before it was read."""
        summaries: list[SessionSummary] = []
        scanned = scanned_file(self.named.scan(source), by_id=False, summaries=summaries)
        if kept is not None and taken is not None:
            kept.keep(path, taken, summaries, [keys.anchored for _, keys in scanned.sessions])
        return scanned

    def _subagent(self, path: Path, kept: ScanCache | None) -> Scanned:
        """The values of a subagent's transcript, from the index when it holds it as it is now."""
        held = kept.kept_with_anchors(path) if kept is not None else None
        if held is not None:
            return kept_file(*held)
        try:
            taken = kept.fingerprint(path) if kept is not None else None
            return self._scanned(path, self.named.open(path), kept, taken)
        except InspectorError as error:
            return unreadable(short_reason(str(error), path))

    def _fill_found(self, filled: list[tuple[str, Scanned, str, SavedReview | None]]) -> None:
        """Put the scanned files' values in their rows, and keep why each unreadable one is."""
        self._errors.update((key, error) for key, _, error, _ in filled if error)
        reviews = [(self._found[key].path, saved) for key, scanned, _, saved in filled if scanned.sessions]
        self._fill_rows([(key, scanned) for key, scanned, _, _ in filled], reviews)

    def _open(self, key: str) -> None:
        """Review the file (a history: list its conversations), or say why it cannot be read."""
        from inspector.sources.discovery import agent_named, subagents_of  # loaded already: it found the sessions
        from inspector.tui.review.screen import ReviewScreen

        found = self._found[key]
        if key in self._errors:  # the scan's line in full: the row cuts it off
            self.notify(
                neutralise(self._errors[key]),
                title=f"{shown_name(found.path.name)} could not be read",
                severity="error",
                timeout=10,
                markup=False,
            )
        elif agent_named(found.tool).history:
            self.app.push_screen(
                Conversations(
                    [found.path],
                    f"Conversations in {shown_name(found.path)} · Enter opens one, Esc goes back to your sessions",
                    self.named,
                )
            )
        elif subagents := subagents_of(found):
            self.app.push_screen(
                SessionAndSubagents(
                    [found.path, *subagents],
                    f"{and_its_subagents(found.path, len(subagents))} · Enter opens one, Esc goes back to your sessions",
                    self.named,
                )
            )
        else:
            self.app.push_screen(ReviewScreen(found.path, named=self.named))

    def _follow_target(self, key: str) -> tuple[Path, int | None] | None:
        """The session file the row shows, when it was read and is not a history database."""
        from inspector.sources.discovery import agent_named

        found = self._found[key]
        return None if key in self._errors or agent_named(found.tool).history else (found.path, None)


class Conversations(PickerScreen):
    """The conversations of a history among the person's sessions; Esc goes back to them."""

    BINDINGS = [
        *(
            binding
            for binding in PickerScreen.BINDINGS
            if not (isinstance(binding, Binding) and binding.key == "escape")
        ),
        Binding(
            "escape",
            "back",
            "Back",
            tooltip="Clear the search, then the sort and filters, then go back to your sessions",
        ),
    ]
    noun = "conversations"

    def leave(self) -> None:
        """Back to the person's sessions."""
        self.app.pop_screen()


def and_its_subagents(session: Path, count: int) -> str:
    """The title of a list of a session and its `count` subagents' transcripts: 'NAME and its 2 subagents'."""
    return f"{shown_name(session.name)} and its {count} subagent{'' if count == 1 else 's'}"


class SessionAndSubagents(Conversations):
    """A session and its subagents' transcripts, each session a row; Esc goes back to the person's sessions."""

    noun = "sessions"


def _kept_with_subagents(kept: ScanCache, found: FoundSession) -> Scanned | None:
    """The values of a session file and its subagents' transcripts from the index, when it holds
    every one of them as it is now; None when one must be read."""
    from inspector.sources.discovery import subagents_of  # loaded already: it found the sessions

    held = kept.kept_with_anchors(found.path)
    if held is None:
        return None
    subagents = [kept.kept_with_anchors(path) for path in subagents_of(found)]
    if any(each is None for each in subagents):
        return None
    return with_subagents(kept_file(*held), [kept_file(*each) for each in subagents if each is not None])
