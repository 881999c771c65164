"""The picker of the person's own sessions (`inspector` with no path): one row per session file
found by `inspector.sources.discovery`, newest first, with its tool, project and date at once.

Rows are shown a page at a time (as the cursor nears the last one shown), like a database's
conversations, so thousands of files list at once. A thread worker then scans the files in the
rows' order and fills in each one's turn count and findings by kind, about once a second; it
pauses while another screen is shown and stops when the picker closes. A file that cannot be read
says why on its row (and in full on Enter). `llm`'s database is one row: Enter lists its
conversations in a picker of their own (Esc comes back), where they are scanned.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Sequence

from rich.text import Text
from textual import work
from textual.binding import Binding
from textual.worker import get_current_worker

from inspector.errors import InspectorError
from inspector.sources.discovery import LLM, FoundSession
from inspector.support.safe_text import neutralise
from inspector.tui.conversations import ReadOptions, listing
from inspector.tui.picker import FILL_EVERY, PickerScreen
from inspector.tui.picker_rows import database_cells, error_cells, file_cells, found_row, row_key
from inspector.tui.review_screen import ReviewScreen


class FoundPicker(PickerScreen):
    """Choose one of the person's own sessions to review."""

    COLUMNS = ("Tool", "Project", "Date", "Turns", "Findings by kind")

    def __init__(self, found: Sequence[FoundSession], title: str, named: ReadOptions = ReadOptions()) -> None:
        """`named`: how to read the sessions (the extra tool definitions of `--tools`)."""
        super().__init__([session.path for session in found], title, named)
        self._home = Path.home()
        self._found = {row_key(session): session for session in found}  # row key -> the file
        self._errors: dict[str, str] = {}  # row key -> why the file cannot be read, once scanned
        self._waiting.extend(found)  # each row's cells are made when it is shown

    def _row(self, waiting: FoundSession) -> tuple[str, tuple[Text, ...], tuple[Text, ...]]:
        """The row of a file about to be shown, made now: thousands wait as files, not as cells."""
        return found_row(waiting, self._home)

    @work(thread=True, exclusive=True)
    def _scan(self) -> None:
        """Scan each file in the rows' order while the picker is shown; hand over the cells in batches."""
        drawn = threading.Event()
        self.app.call_from_thread(self.call_after_refresh, drawn.set)
        drawn.wait(1.0)  # the first rows are on screen before the scan competes with drawing them
        worker = get_current_worker()
        filled: list[tuple[str, tuple[Text, ...], str]] = []
        sent = time.monotonic()
        for key, found in self._found.items():
            while not self._shown.wait(0.1):  # another screen is shown: it gets the machine
                if worker.is_cancelled:
                    return
            if worker.is_cancelled:
                return
            filled.append((key, *self._cells(found)))
            if time.monotonic() - sent > FILL_EVERY:
                self.app.call_from_thread(self._fill_found, filled)
                filled, sent = [], time.monotonic()
        if filled:
            self.app.call_from_thread(self._fill_found, filled)
        self.app.call_from_thread(self._scan_done)

    def _cells(self, found: FoundSession) -> tuple[tuple[Text, ...], str]:
        """The file's turn count and findings by kind (a history's messages and conversations,
        counted), and the error that stopped reading it ("" when none)."""
        try:
            source = self.named.open(found.path)
            if source.streams:
                return database_cells(listing(source)[0]), ""
            return file_cells(self.named.scan(source)), ""
        except InspectorError as error:
            return error_cells(str(error), found.path), str(error)

    def _fill_found(self, filled: list[tuple[str, tuple[Text, ...], str]]) -> None:
        """Put the scanned files' cells in their rows, and keep why each unreadable one is."""
        self._errors.update((key, error) for key, _, error in filled if error)
        self._fill_rows([(key, cells) for key, cells, _ in filled])

    def _open(self, key: str | None) -> None:
        """Review the file (a history: list its conversations), or say why it cannot be read."""
        found = self._found[key]
        if key in self._errors:  # the scan's line in full: the row cuts it off
            self.notify(neutralise(self._errors[key]), title=f"{neutralise(found.path.name)} could not be read",
                        severity="error", timeout=10, markup=False)
        elif found.tool == LLM:
            self.app.push_screen(Conversations([found.path], f"Conversations in {found.path} · Enter opens one, "
                                                             "Esc goes back to your sessions", self.named))
        else:
            self.app.push_screen(ReviewScreen(found.path, named=self.named))


class Conversations(PickerScreen):
    """The conversations of a history among the person's sessions; Esc goes back to them."""

    BINDINGS = [*PickerScreen.BINDINGS, Binding("escape", "app.pop_screen", "Back", tooltip="Back to your sessions")]
