"""The help screen: every key and what it does, and how a review goes (or how the list works)."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from inspector.tui.review.turn_list import MARKS

FLOW = (
    "Step through the flagged turns with n and N (j and k move one turn at a time). For each "
    "finding compare the original on the left with the repair on the right, then approve it (a), "
    "edit it (e) or skip it (s); A and S approve or skip every pending finding of a kind at once "
    "(skipping findings that have no fix, such as tool-error, acknowledges them). Every decision "
    "is saved at once to the session's review file in your state folder, so closing and reopening "
    "resumes where you left off; u undoes the last decision, as many times as you like. Nothing "
    "changes in the session until you export (x): the repaired session goes to a new file "
    "(NAME.fixed.EXT) with its audit record, unless you choose to overwrite the input, which is "
    "backed up first. Recovered calls are never run, unless you start the app with your own "
    "executor (inspector PATH --execute CMD): then X runs an approved fix's recovered calls through "
    "CMD, after asking, and the export records its answers. Two inspectors on one session merge "
    "their decisions. With several findings on one turn, w shows the turn as the export will write "
    "it, every approved fix applied and the others not."
)
LEGEND = "Flagged turns are marked " + ", ".join(f"{glyph} {meaning}" for _, glyph, meaning in MARKS) + "."


class HelpScreen(ModalScreen[None]):
    """A two-column table of the keys, and a paragraph on the review flow (or another); escape, q or ? close.
    On a short terminal the arrow keys scroll it."""

    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
    }
    HelpScreen > VerticalScroll {
        width: 90;
        max-width: 95%;
        height: auto;
        max-height: 90%;
        padding: 1 2;
        border: thick $primary;
        border-title-align: center;
        background: $surface;
    }
    HelpScreen #keys {
        margin-bottom: 1;
    }
    HelpScreen .legend {
        margin-top: 1;
    }
    HelpScreen .hint {
        margin-top: 1;
        color: $text-muted;
    }
    """
    BINDINGS = [Binding("escape,q,question_mark", "close", "Close", show=False)]

    def __init__(self, bindings: list[tuple[str, str]], flow: str = FLOW) -> None:
        """`flow`: the paragraph under the keys (by default, how a review goes)."""
        super().__init__()
        self.bindings = bindings
        self.flow = flow

    def compose(self) -> ComposeResult:
        with VerticalScroll() as box:
            box.border_title = "Help"
            yield Static(self._keys_table(), id="keys")
            yield Static(Content(self.flow))
            yield Static(Content(LEGEND), classes="legend")
            yield Static(Content("escape, q or ? close this help"), classes="hint")

    def _keys_table(self) -> Table:
        """Key and description, one row each, as plain text."""
        table = Table(box=None, expand=True, header_style="bold", pad_edge=False)
        table.add_column("key", no_wrap=True, style="bold")
        table.add_column("what it does", ratio=1)
        for key, action in self.bindings:
            table.add_row(Text(key), Text(action))
        return table

    def action_close(self) -> None:
        """Close the help."""
        self.dismiss(None)
