"""The picker's table: every row it lists kept as values (`ListedRow`), arranged by the view the
person chose (`View`: sort, filters, search), and drawn a page at a time.

A table row costs the app's thread about 0.3 ms to add and drawing the table grows with its rows,
so only the first FIRST_ROWS rows of the arrangement are in the table, and MORE_ROWS more are
added as the cursor nears the last one: a sort or a filter of thousands of rows draws one page.
The columns are those that fit the table's width (`columns`), each as wide as its longest
cell allows; they are fitted again when the table is resized or when longer cells come.

Rows the scan fills in are updated where they are drawn; while the view sorts or filters (their
values may move them), the rows are arranged again at most once every CATCH_UP seconds. Arranged
again, the table draws its first page, the cursor staying on its row when the row is on it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.text import Text
from textual import on
from textual.message import Message
from textual.timer import Timer
from textual.widgets import DataTable

from inspector.tui.picker.columns import ColumnSpec, fitted
from inspector.tui.picker.rows import cell, cell_text
from inspector.tui.picker.view import MOST_FIRST, ListedRow, View, arranged

FIRST_ROWS, MORE_ROWS, NEAR_THE_END, CATCH_UP = 100, 100, 40, 1.0
SCROLLBAR = 2  # kept free for the table's scroll bar


class ListTable(DataTable[Text]):
    """The rows a `View` keeps, in its order, a page at a time, in the columns that fit."""

    class Arranged(Message):
        """The rows were arranged again by the view (their number may have changed)."""

    def __init__(self, specs: Sequence[ColumnSpec]) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True)
        self.specs = list(specs)
        self.listed: dict[str, ListedRow] = {}  # every row, by key, in the listing's order
        self.view = View()
        self.arrangement: list[ListedRow] = []  # the rows the view keeps, in its order
        self._longest = {spec.key: len(spec.label) for spec in specs}  # each column's longest cell
        self._widths: dict[str, int] = {}  # the columns drawn, and their widths
        self._stale = False  # rows changed since the view arranged them
        self._timer: Timer | None = None

    def cursor_key(self) -> str | None:
        """The key of the row under the cursor (None: no row)."""
        if not self.row_count:
            return None
        return self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value

    def add(self, rows: Iterable[ListedRow]) -> None:
        """List new rows: at the end of the listing (and of the table's page, if it is not full);
        arranged among the others soon while the view sorts or filters."""
        rows = list(rows)
        for row in rows:
            row.order = len(self.listed)
            self.listed[row.key] = row
        self._measure(rows)
        if not self.view.default:
            self._later(stale=True)
            return
        self.arrangement.extend(rows)
        self.show_more(FIRST_ROWS - self.row_count)

    def changed(self, rows: Iterable[ListedRow]) -> None:
        """Draw the rows whose values changed again where they are drawn; arrange them again soon
        while the view sorts or filters."""
        rows = list(rows)
        self._measure(rows)
        for row in rows:
            if row.key in self.rows:
                for column, width in self._widths.items():
                    self.update_cell(row.key, column, cell(row, column, width))
        if not self.view.default:
            self._later(stale=True)

    def arrange_by(self, view: View) -> None:
        """Show the rows as `view` asks, the cursor staying on its row when the view keeps it."""
        self.view = view
        self._stale = False
        self.arrangement = arranged(self.listed.values(), view)
        self._redraw(keep_scroll=False)
        self.post_message(self.Arranged())

    def show_more(self, count: int) -> None:
        """Add up to `count` more rows of the arrangement to the table."""
        start = self.row_count
        for row in self.arrangement[start : start + max(count, 0)]:
            self.add_row(*(cell(row, column, width) for column, width in self._widths.items()), key=row.key)

    def to_end(self) -> None:
        """Add every row of the arrangement and put the cursor on the last."""
        self.show_more(len(self.arrangement))
        if self.row_count:
            self.move_cursor(row=self.row_count - 1)

    def catch_up(self) -> None:
        """Arrange the rows again if they changed, and fit the columns to their cells."""
        self._timer = None
        if self._stale:
            self.arrange_by(self.view)
        elif self._fitted() != self._widths:
            self._redraw(keep_scroll=True)

    def on_mount(self) -> None:
        self._redraw(keep_scroll=True)

    def on_resize(self) -> None:
        if self._fitted() != self._widths:
            self._redraw(keep_scroll=True)

    @on(DataTable.RowHighlighted)
    def _near_the_end(self, event: DataTable.RowHighlighted) -> None:
        if self.row_count < len(self.arrangement) and event.cursor_row >= self.row_count - NEAR_THE_END:
            self.show_more(MORE_ROWS)

    def _measure(self, rows: list[ListedRow]) -> None:
        """Keep each column's longest cell; fit the columns soon when one grew."""
        longest = self._longest
        grew = False
        for row in rows:
            for column in longest:
                width = len(cell_text(row, column))
                if width > longest[column]:
                    longest[column], grew = width, True
        if grew:
            self._later(stale=False)

    def _later(self, stale: bool) -> None:
        self._stale = self._stale or stale
        if self._timer is None:
            self._timer = self.set_timer(CATCH_UP, self.catch_up)

    def _fitted(self) -> dict[str, int]:
        width = (self.size.width or self.app.size.width) - SCROLLBAR
        longest = dict(self._longest)
        if self.view.sort in longest:  # its header has the sort's arrow
            longest[self.view.sort] = max(longest[self.view.sort], len(self._label(self.view.sort)))
        return fitted(self.specs, longest, width)

    def _label(self, column: str) -> str:
        label = next(spec.label for spec in self.specs if spec.key == column)
        if column != self.view.sort:
            return label
        largest_first = (column in MOST_FIRST) != self.view.reverse
        return f"{label} {'▼' if largest_first else '▲'}"

    def _redraw(self, keep_scroll: bool) -> None:
        """Draw the table again: the columns that fit, then as many rows as it held (`keep_scroll`,
        the rows in the same order) or its first page, the cursor on the row it was on if it is
        drawn (else on the first row: drawing thousands of rows down to it would take seconds)."""
        key, scrolled = self.cursor_key(), self.scroll_y
        shown = self.row_count if keep_scroll else FIRST_ROWS
        place = next((number for number, row in enumerate(self.arrangement[:shown]) if row.key == key), None)
        self._widths = self._fitted()
        self.clear(columns=True)
        for column, width in self._widths.items():
            self.add_column(Text(self._label(column), overflow="ellipsis", no_wrap=True), width=width, key=column)
        self.show_more(max(shown, FIRST_ROWS))
        if place is not None:
            self.move_cursor(row=place, scroll=not keep_scroll)
        if keep_scroll:
            self.call_after_refresh(self.scroll_to, y=scrolled, animate=False)
