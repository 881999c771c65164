"""The help screen: every key and what it does, and how a review goes."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

FLOW = (
    "Step through the flagged turns with n and N (j and k move one turn at a time). For each "
    "finding compare the original on the left with the repair on the right, then approve it (a), "
    "edit it (e) or skip it (s). Every decision is saved at once to a review file beside the "
    "session (SESSION.review.json), so closing and reopening resumes where you left off; u undoes "
    "the last decision, as many times as you like. Nothing changes in the session until you export "
    "(x): the repaired session goes to a new file (NAME.fixed.EXT) with its audit record, unless "
    "you choose to overwrite the input, which is backed up first."
)


class HelpScreen(ModalScreen[None]):
    """A two-column table of the keys, and a paragraph on the review flow; escape, q or ? close."""

    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
    }
    HelpScreen > Vertical {
        width: 90;
        max-width: 95%;
        height: auto;
        max-height: 90%;
        padding: 1 2;
        border: thick $primary;
        border-title-align: center;
        background: $surface;
    }
    HelpScreen DataTable {
        height: auto;
        max-height: 24;
        margin-bottom: 1;
    }
    HelpScreen .hint {
        margin-top: 1;
        color: $text-muted;
    }
    """
    BINDINGS = [Binding("escape,q,question_mark", "close", "Close", show=False)]

    def __init__(self, bindings: list[tuple[str, str]]) -> None:
        super().__init__()
        self.bindings = bindings

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Help"
            keys: DataTable[Text] = DataTable(cursor_type="none", zebra_stripes=True)
            keys.add_column(Text("key", style="bold"), key="key")
            keys.add_column(Text("what it does", style="bold"), key="action")
            for key, action in self.bindings:
                keys.add_row(Text(key, style="bold"), Text(action))
            yield keys
            yield Static(Content(FLOW))
            yield Static(Content("escape, q or ? close this help"), classes="hint")

    def action_close(self) -> None:
        """Close the help."""
        self.dismiss(None)
