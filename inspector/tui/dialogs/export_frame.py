"""What both export dialogs (of a file, of a server's database) share: the choice they answer with,
a path typed in `#path`, Enter or ctrl+s to export and escape to cancel, the buttons, the one-line
problem in `#problem`, and asking before a file that exists already is replaced."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from textual import on
from textual.binding import Binding
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from inspector.model import Location
from inspector.support.safe_text import neutralise, shown_name
from inspector.tui.dialogs.confirm import Confirm


@dataclass(frozen=True)
class ExportChoice:
    """Where to write the repaired session, whether that is the input itself (which the export
    then backs up first), the format to write it in (None: the session's own), and whether the
    person agreed to replace the existing file there."""

    path: Location  # a server's database (its URL) is exported in place only
    overwrite_input: bool
    to: str | None = None
    replace_existing: bool = False


class ExportFrame(ModalScreen[ExportChoice | None]):
    """An export dialog: a subclass composes its widgets and says, in `action_export`, what the
    person chose."""

    BINDINGS = [
        Binding("ctrl+s,enter", "export", "Export", show=False),
        Binding("escape", "cancel", "Cancel", show=False),
    ]

    def action_export(self) -> None:
        """Close with the choice made, or say in one line why it cannot be used."""
        raise NotImplementedError

    @on(Input.Submitted, "#path")
    def _submitted(self) -> None:
        self.action_export()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "export":
            self.action_export()
        else:
            self.action_cancel()

    def typed_path(self) -> Path | None:
        """The file typed in `#path`, or None after saying why it cannot be written to."""
        typed = self.query_one("#path", Input).value.strip()
        if not typed:
            self.show_problem("Give a file to write to.")
            return None
        path = Path(typed).expanduser()
        if path.is_dir():
            self.show_problem(neutralise(f"{shown_name(path)} is a directory: give a file name."))
            return None
        return path

    def ask_to_replace(self, choice: ExportChoice) -> None:
        """Close with `choice` once the person agrees to replace the file there; else stay."""

        def answered(replace: bool | None) -> None:
            if replace:
                self.dismiss(choice)
            else:
                self.show_problem("Not replaced: give another file.")

        question = neutralise(f"{shown_name(choice.path)} exists already. Replace it?")
        self.app.push_screen(Confirm(question, "Replace", "Keep it", default=False), answered)

    def action_cancel(self) -> None:
        """Close without exporting."""
        self.dismiss(None)

    def show_problem(self, problem: str) -> None:
        """Say in the dialog, in one line, why the export cannot go ahead."""
        self.query_one("#problem", Static).update(Content(problem))
