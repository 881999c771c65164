"""The picker: every session of some files, with its format, turn count and findings by kind.

Files are scanned one by one in a thread worker; each row appears as soon as its file is done,
under a progress bar. Only each session's summary (format, turn count, findings by kind) is kept
(`inspector.tui.picker_rows`), so a directory of big files is not held in memory; Enter opens the
session in the review screen, which loads and scans it again.

An SQLite history's conversations are listed at once (id and message count, counted by SQLite),
then scanned one at a time, their rows filled in as they go (about once a second, FILL_EVERY); a
row opens before its scan is done. Rows are added a page at a time, as the cursor nears the last
one shown. The scan pauses while another screen is shown (closing its read of the database, so
an export may write to it) and stops when the picker closes.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from contextlib import closing
from pathlib import Path
from typing import Callable

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, ProgressBar, Static
from textual.worker import get_current_worker

from inspector.errors import InspectorError
from inspector.sources.base import Source
from inspector.support.safe_text import neutralise
from inspector.tui.commands import ScreenKeys, help_rows
from inspector.tui.conversations import ReadOptions, listing
from inspector.tui.help import HelpScreen
from inspector.tui.picker_rows import RowTarget, result_cells, session_row
from inspector.tui.review_screen import ReviewScreen

# A table row costs the app's thread about 0.3 ms to add and redrawing the table grows with its rows,
# so a database's rows are added a page at a time as the cursor nears the end of those shown.
FIRST_ROWS, MORE_ROWS, NEAR_THE_END, FILL_EVERY = 200, 200, 40, 1.0


class PickerScreen(Screen[None]):
    """Choose a session to review."""

    COMMANDS = {ScreenKeys}
    BINDINGS = [
        Binding("enter", "open", "Open session"),
        Binding("question_mark", "help", "Help"),
        Binding("q", "app.quit", "Quit", tooltip="Quit (asks when decisions are not exported)"),
    ]
    COLUMNS = ("File", "Session", "Findings by kind", "Turns", "Format")  # findings in view on 80 columns
    DEFAULT_CSS = """
    PickerScreen #title { height: auto; max-height: 4; background: $panel; padding: 0 1; }
    PickerScreen #progress { height: 1; padding: 0 1; }
    PickerScreen #progress.-done { display: none; }
    PickerScreen DataTable { height: 1fr; }
    """

    def __init__(self, files: list[Path], title: str, named: ReadOptions = ReadOptions()) -> None:
        """`named`: how to read the files (a database's table, `--table`/`--map`; `--format`; `--tools`)."""
        super().__init__()
        self.files = files
        self.heading = title
        self.named = named
        self.scanned = threading.Event()  # set once every session of every file is scanned
        self._shown = threading.Event()  # set while the picker is the screen shown: the scan runs
        self._targets: dict[str, RowTarget] = {}  # row key -> what Enter on the row opens
        # rows not shown yet (see `_row`): key, the cells known from the start, and the cells shown until it is scanned
        self._waiting: deque = deque()
        self._scanned: dict[str, tuple[Text, ...]] = {}  # the scanned cells of rows not shown yet

    def compose(self) -> ComposeResult:
        yield Static(Text(neutralise(self.heading), style="bold"), id="title")
        yield ProgressBar(total=len(self.files), show_eta=False, id="progress")
        table = DataTable(cursor_type="row", zebra_stripes=True)
        self._columns = table.add_columns(*self.COLUMNS)
        yield table
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(DataTable).focus()
        self._show_more(FIRST_ROWS)  # rows listed before the picker was shown, if any
        self._scan()

    def on_screen_resume(self, _: events.ScreenResume) -> None:
        self._shown.set()

    def on_screen_suspend(self, _: events.ScreenSuspend) -> None:
        self._shown.clear()

    @work(thread=True, exclusive=True)
    def _scan(self) -> None:
        """Scan each file in turn and hand its rows to the app's thread."""
        for path in self.files:
            try:
                source = self.named.open(path)
                if source.streams:  # a history: its conversations listed, then scanned in turn
                    self._scan_database(path, source)
                    if get_current_worker().is_cancelled:
                        return
                    continue
                results = list(self.named.scan(source))
            except InspectorError as error:
                self.app.call_from_thread(self._add_failure, path, str(error))
            else:
                rows = [session_row(path, index, result, len(results)) for index, result in enumerate(results)]
                results = None  # the next file is not scanned while this one is still held
                self.app.call_from_thread(self._add_rows, rows)
        self.app.call_from_thread(self._scan_done)

    def _scan_database(self, path: Path, source: Source) -> None:
        """List the database's conversations, then scan them one by one while the picker is shown."""
        try:
            listed, schema = listing(source)
        except InspectorError as error:  # also said in full: the row cuts off a long line (with its hint)
            self.app.call_from_thread(self._add_failure, path, str(error))
            self.app.call_from_thread(self.notify, neutralise(str(error)), title="Cannot list the conversations",
                                      severity="error", timeout=30, markup=False)
            return
        drawn = threading.Event()
        self.app.call_from_thread(self._add_conversations, path, schema, listed, drawn.set)
        drawn.wait(1.0)  # the rows are on screen before the scan competes with drawing them
        done, filled, sent = 0, [], time.monotonic()
        worker = get_current_worker()
        try:
            while done < len(listed):
                while not self._shown.wait(0.1):
                    if worker.is_cancelled:
                        return
                with closing(self.named.scan(source, done)) as results:  # closed while paused: no read lock held
                    for result in results:
                        filled.append((f"{done}:{path}", result_cells(result)))
                        done += 1
                        if worker.is_cancelled:
                            return
                        if time.monotonic() - sent > FILL_EVERY or done == len(listed):
                            self.app.call_from_thread(self._fill_rows, filled)
                            filled, sent = [], time.monotonic()
                        if not self._shown.is_set():
                            break
        except InspectorError as error:
            self.app.call_from_thread(self.notify, neutralise(f"{error} (scanning stopped)"), severity="error",
                                      markup=False)
        if filled:
            self.app.call_from_thread(self._fill_rows, filled)

    def _scan_done(self) -> None:
        """Hide the progress bar: every session of every file is scanned."""
        self.query_one("#progress").add_class("-done")
        self.scanned.set()

    def _add_rows(self, rows: list[tuple[str, RowTarget, tuple[Text, ...]]]) -> None:
        self._show_more(len(self._waiting))  # a database listed before: all its rows first
        table = self.query_one(DataTable)
        for key, target, cells in rows:
            self._targets[key] = target
            table.add_row(*cells, key=key)
        self.query_one(ProgressBar).advance(1)

    def _add_conversations(self, path: Path, schema: str, listed: list[tuple[str, int]],
                           drawn: Callable[[], None]) -> None:
        """Keep a row for each conversation, its findings to come, and show the first ones (then
        call `drawn`); the progress bar counts the conversations."""
        self._show_more(len(self._waiting))
        for number, (conversation, messages) in enumerate(listed):
            key = f"{number}:{path}"
            self._targets[key] = RowTarget(path, number, conversation)
            self._waiting.append((key, (Text(neutralise(path.name)), Text(neutralise(conversation))),
                                  (Text("scanning…", style="dim"), Text(f"{messages:,}", justify="right"), Text(schema))))
        self._show_more(FIRST_ROWS)
        bar = self.query_one(ProgressBar)
        bar.update(total=(bar.total or 0) + len(listed) - 1)
        self.call_after_refresh(drawn)

    def _show_more(self, count: int) -> None:
        """Add up to `count` of the rows waiting, with their findings when they are scanned already."""
        table = self.query_one(DataTable)
        for _ in range(min(count, len(self._waiting))):
            key, known, unscanned = self._row(self._waiting.popleft())
            table.add_row(*known, *(self._scanned.pop(key, None) or unscanned), key=key)

    def _row(self, waiting: tuple[str, tuple[Text, ...], tuple[Text, ...]]) -> tuple[str, tuple[Text, ...], tuple[Text, ...]]:
        """A waiting row's key, the cells known from the start, and those shown until it is
        scanned (kept as such here; a picker of many rows may keep less and make them now)."""
        return waiting

    @on(DataTable.RowHighlighted)
    def _near_the_end(self, event: DataTable.RowHighlighted) -> None:
        if self._waiting and event.cursor_row >= event.data_table.row_count - NEAR_THE_END:
            self._show_more(MORE_ROWS)

    def _fill_rows(self, filled: list[tuple[str, tuple[Text, ...]]]) -> None:
        """Put the scanned rows' cells (those of the last columns, which the scan tells: findings,
        turn count, format) in their rows (or keep them for rows not shown yet)."""
        table = self.query_one(DataTable)
        for key, cells in filled:
            if key not in table.rows:
                self._scanned[key] = cells
                continue
            for column, cell in zip(self._columns[-len(cells):], cells):
                # Only a cell wider than its column widens it: for a narrower one DataTable would
                # measure every cell of the column again (a second's stall for a few hundred rows).
                wider = cell.cell_len > table.columns[column].content_width
                table.update_cell(key, column, cell, update_width=wider)
        self.query_one(ProgressBar).advance(len(filled))

    def _add_failure(self, path: Path, error: str) -> None:
        key = f"-1:{path}"
        self._targets[key] = RowTarget(path, None, error=error)
        self.query_one(DataTable).add_row(Text(neutralise(path.name)), Text(""), Text(neutralise(error), style="red"),
                                          Text(""), Text("unreadable", style="bold red"), key=key)
        self.query_one(ProgressBar).advance(1)

    @on(DataTable.RowSelected)
    def _row_chosen(self, event: DataTable.RowSelected) -> None:
        self._open(event.row_key.value)

    def action_open(self) -> None:
        """Open the highlighted session."""
        table = self.query_one(DataTable)
        if table.row_count:
            self._open(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value)

    def _open(self, key: str | None) -> None:
        path, session, conversation, error = self._targets[key]
        if conversation is not None:
            self.app.push_screen(ReviewScreen(path, conversation=conversation, named=self.named))
        elif session is None:  # the scan's line in full: the row cuts it off
            self.notify(neutralise(error), title=f"{neutralise(path.name)} could not be read", severity="error",
                        timeout=10, markup=False)
        else:
            self.app.push_screen(ReviewScreen(path, session, named=self.named))

    def action_help(self) -> None:
        """Show every key."""
        self.app.push_screen(HelpScreen(help_rows(self)))
