"""A screen of a `ListTable` and the keys that arrange it: s sorts by the next column (S
reverses), f filters by findings (each kind in turn; F goes back), r by review status, / searches
as it is typed, j k g G move, Esc clears the search, then the sort and filters, then `leave`s.

The screen composes the table, a `#view` line saying what the list shows, and the `search_row`
(hidden until /); its subclass binds the keys, and says which columns it sorts by (SORTS) and
what its rows are (`noun`).
"""

from __future__ import annotations

from dataclasses import replace

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Input, Static

from inspector.tui.commands import ScreenKeys
from inspector.tui.picker.table import ListTable
from inspector.tui.picker.view import LISTED, STATUS_OPTIONS, View, described, kind_options


class ListScreen(Screen[None]):
    """A list of sessions the person sorts, filters, searches and moves through."""

    COMMANDS = {ScreenKeys}
    SORTS: tuple[str, ...] = (LISTED, "findings", "status", "turns")
    noun = "sessions"  # what the rows are
    DEFAULT_CSS = """
    ListScreen #view { height: auto; max-height: 2; padding: 0 1; color: $text-muted; }
    ListScreen ListTable { height: 1fr; }
    ListScreen #search-row { height: 1; display: none; background: $panel; }
    ListScreen #search-row.-open { display: block; }
    ListScreen #search-row Static { width: auto; padding: 0 1; color: $text-accent; }
    ListScreen #search { width: 1fr; }
    """

    @property
    def table(self) -> ListTable:
        """The table of rows."""
        return self.query_one(ListTable)

    def search_row(self) -> ComposeResult:
        """The search box and its label, shown by /."""
        with Horizontal(id="search-row"):
            yield Static(Text("Search names, ids and formats (Enter keeps it · Esc clears):"))
            yield Input(compact=True, id="search")

    def on_mount(self) -> None:
        """(Textual calls each class's `on_mount`, the subclass's first: its rows are listed.)"""
        self.table.focus()
        self.describe()

    @on(ListTable.Arranged)
    def _arranged(self) -> None:
        self.describe()

    def describe(self) -> None:
        """Say what the list shows: how many rows of how many, sorted and filtered how."""
        table = self.table
        self.query_one("#view", Static).update(
            Text(described(table.view, len(table.arrangement), len(table.listed), self.noun))
        )

    def action_sort(self) -> None:
        """Sort by the next column (the listing's own order after the last)."""
        self.table.arrange_by(replace(self.table.view.cycled("sort", self.SORTS), reverse=False))

    def action_reverse(self) -> None:
        """Reverse the sort."""
        self.table.arrange_by(replace(self.table.view, reverse=not self.table.view.reverse))

    def action_kind(self, step: int) -> None:
        """Show only the rows with findings, then with each kind in turn, then without, then all."""
        self.table.arrange_by(self.table.view.cycled("kind", kind_options(self.table.listed.values()), step))

    def action_status(self) -> None:
        """Show only the pending, decided or exported rows, in turn, then all."""
        self.table.arrange_by(self.table.view.cycled("status", STATUS_OPTIONS))

    def action_search(self) -> None:
        """Open the search box, holding the search in use."""
        self.query_one("#search-row").add_class("-open")
        box = self.query_one("#search", Input)
        box.value = self.table.view.search
        self.call_after_refresh(box.focus)

    @on(Input.Changed, "#search")
    def _searched(self, event: Input.Changed) -> None:
        if event.value != self.table.view.search:
            self.table.arrange_by(replace(self.table.view, search=event.value))

    @on(Input.Submitted, "#search")
    def _search_kept(self, event: Input.Submitted) -> None:
        self.query_one("#search-row").set_class(bool(event.value), "-open")  # stays in view while it is used
        self.table.focus()

    def action_back(self) -> None:
        """Clear the search, else the sort and filters, else leave (`leave`)."""
        row, view = self.query_one("#search-row"), self.table.view
        if row.has_class("-open") or view.search:
            row.remove_class("-open")
            self.table.focus()
            if view.search:
                self.table.arrange_by(replace(view, search=""))
        elif not view.default:
            self.table.arrange_by(View())
        else:
            self.leave()

    def leave(self) -> None:
        """What Esc does once there is nothing to clear: nothing here (the first screen stays)."""

    def action_move(self, step: int) -> None:
        """Move the cursor down (1) or up (-1) a row."""
        if step > 0:
            self.table.action_cursor_down()
        else:
            self.table.action_cursor_up()

    def action_first(self) -> None:
        """Put the cursor on the first row."""
        self.table.move_cursor(row=0)

    def action_last(self) -> None:
        """Put the cursor on the last row (drawing every row before it)."""
        self.table.to_end()
