"""The picker: every session of some files, with its format, turn count and findings by kind.

Files are scanned one by one in a thread worker; each row appears as soon as its file is done,
under a progress bar. Only each session's summary (format, turn count, findings by kind) is kept,
so a directory of big files is not held in memory; Enter opens the session in the review screen,
which loads and scans it again.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, ProgressBar, Static

from inspector.errors import InspectorError
from inspector.safe_text import neutralise
from inspector.scan import ScanResult, scan_file
from inspector.tui.commands import ScreenKeys, help_rows
from inspector.tui.help import HelpScreen
from inspector.tui.review_screen import ReviewScreen


class PickerScreen(Screen[None]):
    """Choose a session to review."""

    COMMANDS = {ScreenKeys}
    BINDINGS = [
        Binding("enter", "open", "Open session"),
        Binding("question_mark", "help", "Help"),
        Binding("q", "app.quit", "Quit", tooltip="Quit (asks when decisions are not exported)"),
    ]
    DEFAULT_CSS = """
    PickerScreen #title { height: 1; background: $panel; padding: 0 1; }
    PickerScreen #progress { height: 1; padding: 0 1; }
    PickerScreen #progress.-done { display: none; }
    PickerScreen DataTable { height: 1fr; }
    """

    def __init__(self, files: list[Path], title: str) -> None:
        super().__init__()
        self.files = files
        self.heading = title

    def compose(self) -> ComposeResult:
        yield Static(Text(neutralise(self.heading), style="bold"), id="title")
        yield ProgressBar(total=len(self.files), show_eta=False, id="progress")
        table = DataTable(cursor_type="row", zebra_stripes=True)
        table.add_columns("File", "Session", "Findings by kind", "Turns", "Format")  # findings in view on 80 columns
        yield table
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(DataTable).focus()
        self._scan()

    @work(thread=True, exclusive=True)
    def _scan(self) -> None:
        """Scan each file in turn and hand its rows to the app's thread."""
        for path in self.files:
            try:
                results = scan_file(path)
            except InspectorError as error:
                self.app.call_from_thread(self._add_failure, path, str(error))
            else:
                rows = [_row(path, index, result, len(results)) for index, result in enumerate(results)]
                results = None  # the next file is not scanned while this one is still held
                self.app.call_from_thread(self._add_rows, rows)
        self.app.call_from_thread(self.query_one("#progress").add_class, "-done")

    def _add_rows(self, rows: list[tuple[str, tuple[Text, ...]]]) -> None:
        table = self.query_one(DataTable)
        for key, cells in rows:
            table.add_row(*cells, key=key)
        self.query_one(ProgressBar).advance(1)

    def _add_failure(self, path: Path, error: str) -> None:
        self.query_one(DataTable).add_row(Text(neutralise(path.name)), Text(""), Text(neutralise(error), style="red"),
                                          Text(""), Text("unreadable", style="bold red"), key=f"-1:{path}")
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
        index, _, name = (key or "").partition(":")
        path = Path(name)
        if int(index) < 0:
            self.notify(f"{neutralise(path.name)} could not be read", severity="error", markup=False)
            return
        self.app.push_screen(ReviewScreen(path, int(index)))

    def action_help(self) -> None:
        """Show every key."""
        self.app.push_screen(HelpScreen(help_rows(self)))


def _row(path: Path, index: int, result: ScanResult, sessions: int) -> tuple[str, tuple[Text, ...]]:
    """The table row of one session (its key, and its cells as plain text): all the picker keeps of it."""
    session = result.session
    label = session.session_id or (f"{index + 1} of {sessions}" if sessions > 1 else "")
    return f"{index}:{path}", (Text(neutralise(path.name)), Text(neutralise(label)), findings_by_kind(result),
                               Text(f"{len(session.turns):,}", justify="right"), Text(session.format))


def findings_by_kind(result: ScanResult) -> Text:
    """'3 result-prefix, 1 orphan-call', or 'none' in a muted colour."""
    counts = Counter(finding.kind for finding in result.findings)
    if not counts:
        return Text("none", style="dim")
    return Text(", ".join(f"{n} {kind}" for kind, n in counts.most_common()))
