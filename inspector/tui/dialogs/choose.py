"""A question with several answers, each pressed by its own key."""

from __future__ import annotations

from collections.abc import Sequence

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.events import Key
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from inspector.tui.dialogs.frame import DIALOG_CSS


class Choose(ModalScreen[str | None]):
    """Ask a question with several answers, each a button pressed by its own key (given with
    it); escape (or `n`) answers None. Enter presses the focused button, at first the first."""

    DEFAULT_CSS = DIALOG_CSS.format(name="Choose")
    BINDINGS = [Binding("n,escape", "choose(None)", "Cancel", show=False)]

    def __init__(self, question: str, answers: Sequence[tuple[str, str]]) -> None:
        """`answers`: (key, label) of each answer, in the order of the buttons."""
        super().__init__()
        self.question = question
        self.answers = list(answers)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Content(self.question), id="question")
            with Horizontal(classes="buttons"):
                for number, (key, label) in enumerate(self.answers):
                    yield Button(
                        Content(f"{label} ({key})"), variant="primary" if number == 0 else "default", id=f"answer-{key}"
                    )
                yield Button(Content("Cancel (n)"), id="cancel")

    def on_mount(self) -> None:
        self.query_one(Button).focus()

    def on_key(self, event: Key) -> None:
        if any(event.character == key for key, _ in self.answers):
            event.stop()
            self.dismiss(event.character)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        button = event.button.id  # "answer-KEY", or "cancel"
        self.dismiss(button.removeprefix("answer-") if button is not None and button != "cancel" else None)

    def action_choose(self, key: str | None) -> None:
        """Close the dialog with the answer `key` (None: cancelled)."""
        self.dismiss(key)
