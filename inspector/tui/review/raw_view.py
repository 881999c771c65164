"""The raw view: the selected turn's record as the file stores it (ids and the keys no reader
uses), as indented JSON in a read-only, scrollable text area: plain text, never markup, with
control characters shown as escapes, and at most `inspector.tui.review.raw_record.RAW_LIMIT`
characters of a huge record."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static, TextArea

from inspector.model import Turn
from inspector.support.safe_text import neutralise
from inspector.tui.review.raw_record import RAW_LIMIT, raw_record_text

NO_RECORD = "This turn has no stored record: a repair added it."


class RawRecordScreen(ModalScreen[None]):
    """The record of one turn; escape, q or r close it, the arrows and PgUp / PgDn scroll."""

    DEFAULT_CSS = """
    RawRecordScreen { align: center middle; }
    RawRecordScreen > Vertical {
        width: 110; max-width: 95%; height: 90%; padding: 0 1;
        border: thick $primary; background: $surface;
    }
    RawRecordScreen TextArea { height: 1fr; }
    RawRecordScreen .hint { color: $text-muted; }
    RawRecordScreen #cut { color: $text-warning; }
    """
    BINDINGS = [Binding("escape,q,r", "close", "Close", show=False)]

    def __init__(self, turn: Turn) -> None:
        super().__init__()
        self.turn = turn

    def compose(self) -> ComposeResult:
        turn = self.turn
        shown = raw_record_text(turn.raw) if turn.raw is not None else None
        with Vertical() as box:
            native = f" · id {turn.id}" if turn.id else ""
            box.border_title = Content(neutralise(f"Turn {turn.position} · {turn.role}{native} · as stored"))
            if shown is not None and shown.cut:
                yield Static(Content(f"Only the first {RAW_LIMIT // 1024} KB of this record are shown."), id="cut")
            yield TextArea(
                neutralise(shown.text) if shown else NO_RECORD,
                read_only=True,
                soft_wrap=True,
                show_line_numbers=True,
                id="raw",
            )
            yield Static(
                Content("escape, q or r close · arrows, PgUp, PgDn scroll · select and ctrl+c to copy"), classes="hint"
            )

    def on_mount(self) -> None:
        self.query_one("#raw", TextArea).focus()

    def action_close(self) -> None:
        """Close the raw view."""
        self.dismiss(None)
