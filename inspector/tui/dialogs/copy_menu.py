"""The copy menu (Y): what to copy of the turn shown: the recovered arguments, the turn's text, the
finding, or the session file's path."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from inspector.tui.copying import OSC52

ARGUMENTS, TEXT, FINDING, PATH = "arguments", "text", "finding", "path"
CHOICES = (  # (key, what is copied, label)
    ("a", ARGUMENTS, "the recovered arguments (also y)"),
    ("t", TEXT, "the turn's text"),
    ("f", FINDING, "the finding: turn, kind, severity and message"),
    ("p", PATH, "the session file's path"),
)


class CopyMenu(ModalScreen[str | None]):
    """Choose what to copy: each choice by its key, or by the arrows and enter; escape cancels."""

    DEFAULT_CSS = """
    CopyMenu { align: center middle; }
    CopyMenu > Vertical {
        width: 78; max-width: 90%; height: auto; padding: 0 1;
        border: thick $primary; background: $surface;
    }
    CopyMenu OptionList { height: auto; border: none; padding: 0; }
    CopyMenu .hint { color: $text-muted; }
    """
    BINDINGS = [
        Binding("escape", "choose(None)", "Cancel", show=False),
        *(Binding(key, f"choose({what!r})", label, show=False) for key, what, label in CHOICES),
    ]

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Copy"
            yield OptionList(
                *(Option(Content.assemble((key, "bold"), f"  {label}"), id=what) for key, what, label in CHOICES)
            )
            yield Static(Content(f"a t f p or enter copy · escape cancel ({OSC52})"), classes="hint")

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_choose(self, what: str | None) -> None:
        """Close with the choice (None: nothing is copied)."""
        self.dismiss(what)
