"""A yes/no question."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from inspector.tui.dialogs.frame import DIALOG_CSS


class Confirm(ModalScreen[bool]):
    """Ask a yes/no question: `y` says yes, `n` or escape says no, enter presses the focused
    button, which is at first Yes, or No when `default` is False (for questions where yes loses
    something, so that a stray enter does not)."""

    DEFAULT_CSS = DIALOG_CSS.format(name="Confirm")
    BINDINGS = [
        Binding("y", "answer(True)", "Yes", show=False),
        Binding("n,escape", "answer(False)", "No", show=False),
    ]

    def __init__(self, question: str, yes: str = "Yes", no: str = "No", *, default: bool = True) -> None:
        super().__init__()
        self.question = question
        self.yes = yes
        self.no = no
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Content(self.question), id="question")
            with Horizontal(classes="buttons"):
                yield Button(Content(f"{self.yes} (y)"), variant="primary", id="yes")
                yield Button(Content(f"{self.no} (n)"), id="no")

    def on_mount(self) -> None:
        self.query_one("#yes" if self.default else "#no", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, answer: bool) -> None:
        """Close the dialog with `answer`."""
        self.dismiss(answer)
