"""The picker: every session of some files, with its findings by kind, turn count, format and
review status (pending, decided, exported: read from its file's review, no session loaded), the
rates of the sessions scanned so far, and the keys of a list (`inspector.tui.picker.list_screen`: sort, filter, search).

Files are scanned one by one in a thread worker; each row appears as soon as its file is done,
under a progress bar. Only each session's values are kept (`inspector.tui.picker.view`), so a
directory of big files is not held in memory; Enter opens the session in the review screen, which
loads and scans it again. Coming back from it, the statuses of the files reviewed are read again.

An SQLite history's conversations are listed at once (id and message count, counted by SQLite),
then scanned one at a time, their rows filled in as they go (about once a second, FILL_EVERY); a
row opens before its scan is done. The table draws a page of rows at a time (`table`). The
scan pauses while another screen is shown (closing its read of the database, so an export may
write to it) and stops when the picker closes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import closing
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, ProgressBar, Static
from textual.worker import get_current_worker

from inspector.errors import InspectorError
from inspector.model import Location
from inspector.scan.rates import Rates
from inspector.support.safe_text import neutralise, shown_name
from inspector.tui.commands import help_rows
from inspector.tui.conversations import ReadOptions, listing
from inspector.tui.host import review_host
from inspector.tui.picker.columns import FINDINGS_FIRST, ColumnSpec
from inspector.tui.picker.kept_files import kept_rows, open_kept_files
from inspector.tui.picker.list_screen import ListScreen
from inspector.tui.picker.rates import RatesLine
from inspector.tui.picker.review_status import NO_REVIEW, SavedReview, saved_review_of, sessions_status
from inspector.tui.picker.rows import (
    RowTarget,
    Scanned,
    scanned_session,
    session_label,
    session_row,
    take,
    unreadable,
)
from inspector.tui.picker.table import ListTable
from inspector.tui.picker.view import LISTED, ListedRow

if TYPE_CHECKING:
    from inspector.search.scan_cache import ScanCache
    from inspector.sources.base import Source

# The review screen and the help screen are imported when first shown; the scan's modules (the
# readers, the detectors) when the scan worker first needs them: the list is drawn without them.

FILL_EVERY = 1.0  # seconds between two batches of scanned rows handed to the app's thread
UNREADABLE_REVIEW = "?"  # the status of a file whose review file cannot be read

KEYS_HELP = (
    "The status of a session is read from its file's review: pending (a finding not decided yet), "
    "decided (every finding decided, not exported since) or exported. Rows still being scanned sort "
    "last and are left out by the filters until they are scanned. The rates line says how many findings "
    "are of a kind about tool calls (every kind but secret and tool-error, a tool's own failure; "
    "info notes aside) and their count per 100 tool calls, as inspector scan reports them. A filter or a search keeps the cursor on its row when the row is "
    "among the first shown; Esc clears the search, then the sort and filters."
)


class PickerScreen(ListScreen):
    """Choose a session to review."""

    BINDINGS = [
        Binding("enter", "open", "Open session"),
        Binding("s", "sort", "Sort", tooltip="Sort by the next column: findings, status, turns, format, name"),
        Binding("S", "reverse", "Reverse", key_display="S", show=False, tooltip="Reverse the sort"),
        Binding(
            "f", "kind(1)", "Findings", tooltip="Only sessions with findings, then with each kind in turn, then without"
        ),
        Binding(
            "F", "kind(-1)", "Findings back", key_display="F", show=False, tooltip="The findings filter before this one"
        ),
        Binding("r", "status", "Status", tooltip="Only pending, decided or exported sessions, in turn"),
        Binding(
            "w", "watch", "Watch", show=False, tooltip="Follow the highlighted session file as its agent writes it"
        ),
        Binding("slash", "search", "Search", tooltip="Search names, ids and formats as you type"),
        Binding(
            "ctrl+f",
            "search_everywhere",
            "Find",
            tooltip="Search the words of every session, narrowed by their findings, and open one on its turn",
        ),
        Binding("j", "move(1)", "Down", show=False, tooltip="Next row (or down arrow)"),
        Binding("k", "move(-1)", "Up", show=False, tooltip="Previous row (or up arrow)"),
        Binding("g", "first", "First", show=False, tooltip="First row"),
        Binding("G", "last", "Last", key_display="G", show=False, tooltip="Last row"),
        Binding("escape", "back", "Clear", show=False, tooltip="Clear the search, then the sort and filters"),
        Binding("question_mark", "help", "Help"),
        Binding("q", "app.quit", "Quit", tooltip="Quit (asks when decisions are not exported)"),
    ]
    # rank 1 is dropped last on a narrow screen; the file goes first when every row is of one file
    COLUMNS = (
        ColumnSpec("file", "File", 12, 1, 40),
        ColumnSpec("session", "Session", 8, 2, 36),
        ColumnSpec("findings", "Findings by kind", 12, 3, 48, first=FINDINGS_FIRST),
        ColumnSpec("turns", "Turns", 5, 5),
        ColumnSpec("format", "Format", 8, 6, 20),
        ColumnSpec("status", "Status", 8, 4),
    )
    SORTS = (LISTED, "findings", "status", "turns", "format", "file")
    DEFAULT_CSS = """
    PickerScreen #title { height: auto; max-height: 4; background: $panel; padding: 0 1; }
    PickerScreen #progress { height: 1; padding: 0 1; }
    PickerScreen #progress.-done { display: none; }
    """

    def __init__(
        self, files: Sequence[Location], title: str, named: ReadOptions = ReadOptions(), noun: str = ""
    ) -> None:
        """`named`: how to read the files (a database's table, `--table`/`--map`; `--format`; `--tools`);
        `noun`: what the rows are ("conversations"; by default, sessions)."""
        super().__init__()
        self.noun = noun or self.noun
        self.files = files
        self.heading = title
        self.named = named
        self.scanned = threading.Event()  # set once every session of every file is scanned
        self._shown = threading.Event()  # set while the picker is the screen shown: the scan runs
        self._targets: dict[str, RowTarget] = {}  # row key -> what Enter on the row opens
        self._reviews: dict[Location, SavedReview | None] = {}  # each file's saved review (None: unreadable)
        self._rates = Rates()

    def compose(self) -> ComposeResult:
        yield Static(Text(neutralise(self.heading), style="bold"), id="title")
        yield Static(id="view")
        yield RatesLine(id="rates")
        yield ProgressBar(total=len(self.files), show_eta=False, id="progress")
        yield ListTable(self._columns())
        yield from self.search_row()
        yield Footer()

    def _columns(self) -> list[ColumnSpec]:
        """The columns, the file's dropped first on a narrow screen when all rows are of one file."""
        if len(self.files) > 1:
            return list(self.COLUMNS)
        return [replace(spec, rank=len(self.COLUMNS) + 1) if spec.key == "file" else spec for spec in self.COLUMNS]

    def on_mount(self) -> None:
        self._scan()

    def on_screen_resume(self, _: events.ScreenResume) -> None:
        self._shown.set()
        self._read_reviews_again()

    def on_screen_suspend(self, _: events.ScreenSuspend) -> None:
        self._shown.clear()

    @work(thread=True, exclusive=True)
    def _scan(self) -> None:
        """Take each file's rows from the search index when it holds the file as it is now, else
        scan it (and keep what was read there for the next time); hand the rows to the app's thread."""
        kept = open_kept_files(self.named)
        try:
            for path in self.files:
                held = kept_rows(kept, path)
                rows = held if held is not None else self._scanned_rows(path, kept)
                if get_current_worker().is_cancelled:
                    return
                if rows is not None:
                    self.app.call_from_thread(self._add_rows, path, saved_review_of(path, self.named.table_key), rows)
        finally:
            if kept is not None:
                kept.close()
        self.app.call_from_thread(self._scan_done)

    def _scanned_rows(
        self, path: Location, kept: ScanCache | None
    ) -> list[tuple[RowTarget, ListedRow, Scanned]] | None:
        """The rows of the file's sessions, scanned (kept in the index when it can keep them); None
        for a history (its conversations are listed and scanned in turn) or an unreadable file."""
        from inspector.scan.summary import summarise  # loaded with the scan: it is scanning

        try:
            taken = kept.fingerprint(path) if kept is not None else None  # before it is read
            source = self.named.open(path)
            if source.streams:  # a history: its conversations listed, then scanned in turn
                self._scan_database(path, source)
                return None
            results = list(self.named.scan(source))
        except InspectorError as error:
            self.app.call_from_thread(self._add_failure, path, str(error))
            return None
        rows = []
        for index, result in enumerate(results):
            label = session_label(result.session.session_id, index, len(results))
            rows.append((RowTarget(path, index), session_row(path, index, label), scanned_session(result, index)))
        if kept is not None and taken is not None and isinstance(path, Path):
            anchors = [keys.anchored for _, _, scanned in rows for _, keys in scanned.sessions]
            kept.keep(path, taken, [summarise(result) for result in results], anchors)
        return rows  # (the results are dropped: the next file is not scanned while they are held)

    def _scan_database(self, path: Location, source: Source) -> None:
        """List the database's conversations, then scan them one by one while the picker is shown."""
        try:
            listed, schema = listing(source)
        except InspectorError as error:  # also said in full: the row cuts off a long line (with its hint)
            self.app.call_from_thread(self._add_failure, path, str(error))
            self.app.call_from_thread(
                self.notify,
                neutralise(str(error)),
                title="Cannot list the conversations",
                severity="error",
                timeout=30,
                markup=False,
            )
            return
        drawn = threading.Event()
        saved = saved_review_of(path, self.named.table_key)
        self.app.call_from_thread(self._add_conversations, path, schema, listed, saved, drawn.set)
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
                        filled.append((f"{done}:{path}", scanned_session(result, str(result.session.session_id))))
                        done += 1
                        if worker.is_cancelled:
                            return
                        if time.monotonic() - sent > FILL_EVERY or done == len(listed):
                            self.app.call_from_thread(self._fill_rows, filled)
                            filled, sent = [], time.monotonic()
                        if not self._shown.is_set():
                            break
        except InspectorError as error:
            self.app.call_from_thread(
                self.notify, neutralise(f"{error} (scanning stopped)"), severity="error", markup=False
            )
        if filled:
            self.app.call_from_thread(self._fill_rows, filled)

    def _scan_done(self) -> None:
        """Hide the progress bar (every session of every file is scanned) and draw the last of it."""
        self.query_one("#progress").add_class("-done")
        self.scanned.set()
        self.table.catch_up()
        self.describe()

    def _add_rows(
        self, path: Location, saved: SavedReview | None, rows: list[tuple[RowTarget, ListedRow, Scanned]]
    ) -> None:
        """List a scanned file's sessions."""
        self._reviews.setdefault(path, saved)
        for target, row, scanned in rows:
            self._targets[row.key] = target
            self._take(row, scanned)
        self.table.add(row for _, row, _ in rows)
        self.query_one(ProgressBar).advance(1)
        self.describe()

    def _add_conversations(
        self,
        path: Location,
        schema: str,
        listed: list[tuple[str, int]],
        saved: SavedReview | None,
        drawn: Callable[[], None],
    ) -> None:
        """List each conversation, its findings to come (then call `drawn`); the progress bar
        counts the conversations."""
        self._reviews.setdefault(path, saved)
        rows = []
        for number, (conversation, messages) in enumerate(listed):
            row = session_row(path, number, conversation)
            row.turns, row.format = messages, schema
            self._targets[row.key] = RowTarget(path, number, conversation)
            rows.append(row)
        self.table.add(rows)
        bar = self.query_one(ProgressBar)
        bar.update(total=(bar.total or 0) + len(listed) - 1)
        self.describe()
        self.call_after_refresh(drawn)

    def _fill_rows(
        self, filled: list[tuple[str, Scanned]], reviews: Iterable[tuple[Location, SavedReview | None]] = ()
    ) -> None:
        """Put what the scan told of each row in it, and draw it where it is drawn; `reviews`: the
        saved reviews of their files, read with them."""
        for path, saved in reviews:
            self._reviews.setdefault(path, saved)
        rows = []
        for key, scanned in filled:
            row = self.table.listed[key]
            self._take(row, scanned)
            rows.append(row)
        self.table.changed(rows)
        self.query_one(ProgressBar).advance(len(filled))
        self.describe()

    def _take(self, row: ListedRow, scanned: Scanned) -> None:
        """Put `scanned` in `row`, read its status from its file's review, and count its rates."""
        take(row, scanned)
        row.status = self._status(row)
        if scanned.rates is not None:
            self._rates.update(scanned.rates)

    def _status(self, row: ListedRow) -> str:
        if not row.scanned:
            return ""
        saved = self._reviews.get(row.path, NO_REVIEW)
        return UNREADABLE_REVIEW if saved is None else sessions_status(saved, row.sessions)

    def _read_reviews_again(self) -> None:
        """Read the reviews of the files reviewed since the picker was shown again, and redraw
        the rows whose status changed."""
        reviewed = {path for path in review_host(self.app).reviewed_paths if path in self._reviews}
        for path in reviewed:
            self._reviews[path] = saved_review_of(path, self.named.table_key)
        changed = []
        for row in self.table.listed.values():
            if row.path in reviewed and row.status != (status := self._status(row)):
                row.status = status
                changed.append(row)
        if changed:
            self.table.changed(changed)

    def _add_failure(self, path: Location, error: str) -> None:
        row = session_row(path, -1, "")
        self._targets[row.key] = RowTarget(path, None, error=error)
        take(row, unreadable(error))
        self.table.add([row])
        self.query_one(ProgressBar).advance(1)
        self.describe()

    def describe(self) -> None:
        """Say what the list shows, and the rates of the sessions scanned."""
        super().describe()
        self.query_one(RatesLine).show(self._rates, self.scanned.is_set())

    @on(ListTable.RowSelected)
    def _row_chosen(self, event: ListTable.RowSelected) -> None:
        if event.row_key.value is not None:  # (every row is added with its key)
            self._open(event.row_key.value)

    def action_open(self) -> None:
        """Open the highlighted session."""
        key = self.table.cursor_key()
        if key is not None:
            self._open(key)

    def action_watch(self) -> None:
        """Follow the highlighted session file as its agent writes it (`--follow`)."""
        key = self.table.cursor_key()
        target = self._follow_target(key) if key is not None else None
        if target is None:
            self.notify(
                "Only a session file that could be read can be followed as it is written",
                title="Cannot follow",
                severity="warning",
                timeout=6,
            )
            return
        from inspector.tui.review.screen import ReviewScreen

        path, session = target
        self.app.push_screen(ReviewScreen(path, session, named=self.named, follow=True))

    def _follow_target(self, key: str) -> tuple[Path, int | None] | None:
        """The file and the session in it the row shows, when it can be followed (not a database's)."""
        path, session, conversation, _ = self._targets[key]
        if not isinstance(path, Path) or conversation is not None or session is None or not path.is_file():
            return None
        return path, session

    def _open(self, key: str) -> None:
        from inspector.tui.review.screen import ReviewScreen

        path, session, conversation, error = self._targets[key]
        if conversation is not None:
            self.app.push_screen(ReviewScreen(path, conversation=conversation, named=self.named))
        elif session is None:  # the scan's line in full: the row cuts it off
            self.notify(
                neutralise(error),
                title=f"{shown_name(path.name)} could not be read",
                severity="error",
                timeout=10,
                markup=False,
            )
        else:
            self.app.push_screen(ReviewScreen(path, session, named=self.named))

    def action_search_everywhere(self) -> None:
        """Open the search of every session: the person's own and the files listed here."""
        from inspector.tui.search.screen import SearchScreen  # loaded when first asked for

        self.app.push_screen(SearchScreen(self.files, self.named))

    def action_help(self) -> None:
        """Show every key."""
        from inspector.tui.help import HelpScreen

        self.app.push_screen(HelpScreen(help_rows(self), KEYS_HELP))
