"""Where to export the review of a PostgreSQL server's database: a server's database cannot be
copied like a file, so the dialog offers what `inspector fix` does there: write the repair into the
database in place (ticked on purpose, as overwriting an SQLite file is; the audit tables keep each
change's before-value and `inspector undo URL` reverts it), or the repaired conversations as OpenAI
Chat Completions JSON in a new file (`fix -o OUT --to openai`)."""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Static

from inspector.model import ServerUrl
from inspector.support.safe_text import neutralise, shown_name
from inspector.tui.dialogs.confirm import Confirm
from inspector.tui.dialogs.export import OPENAI, ExportChoice
from inspector.tui.dialogs.frame import DIALOG_CSS, SpaceToggles


class ServerExportDialog(ModalScreen[ExportChoice | None]):
    """Ask how to export the review of the database at `url`: in place when the person ticks it,
    else as OpenAI JSON into a new file (`openai_path` by default; an existing file is replaced only
    once the person agrees). Enter or ctrl+s exports, escape cancels."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="ServerExportDialog")
        + """
    ServerExportDialog #problem {
        color: $error;
        height: auto;
    }
    """
    )
    BINDINGS = [
        Binding("ctrl+s,enter", "export", "Export", show=False),
        Binding("escape", "cancel", "Cancel", show=False),
    ]

    def __init__(self, url: ServerUrl, openai_path: Path) -> None:
        super().__init__()
        self.url = url
        self.openai_path = openai_path
        self._typed_path = str(openai_path)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(
                Content(
                    "A database on a server cannot be copied like a file. Write the repaired "
                    "conversations as OpenAI Chat Completions JSON to:"
                )
            )
            yield Input(str(self.openai_path), id="path")
            yield SpaceToggles(Content("instead, write the repair into the database in place"), id="in-place")
            yield Static(
                Content(
                    neutralise(
                        f"In place: one transaction; the tables inspector_fixes and inspector_changes keep each change's "
                        f"before-value, and `inspector undo {shown_name(self.url)}` reverts it."
                    )
                ),
                classes="hint",
            )
            yield Static("", id="problem")
            yield Static(Content("enter export · space tick the box · escape cancel"), classes="hint")
            with Horizontal(classes="buttons"):
                yield Button("Export", variant="primary", id="export")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#path", Input).focus()

    @on(Checkbox.Changed, "#in-place")
    def _in_place_changed(self, event: Checkbox.Changed) -> None:
        """In place: the field shows the database (without its password) instead of a file."""
        path = self.query_one("#path", Input)
        if event.value:
            self._typed_path = path.value
            path.value = str(self.url)
        else:
            path.value = self._typed_path
        path.disabled = event.value
        self._show_problem("")

    @on(Input.Changed, "#path")
    def _path_changed(self) -> None:
        self._show_problem("")

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

    def action_export(self) -> None:
        """Close with the choice: in place, or a new file (after agreeing to replace one that
        exists); or say in one line why the path cannot be used."""
        if self.query_one("#in-place", Checkbox).value:
            self.dismiss(ExportChoice(self.url, overwrite_input=True))
            return
        typed = self.query_one("#path", Input).value.strip()
        path = Path(typed).expanduser()
        if not typed:
            self._show_problem("Give a file to write to.")
        elif path.is_dir():
            self._show_problem(neutralise(f"{shown_name(path)} is a directory: give a file name."))
        elif path.exists():
            self._ask_to_replace(ExportChoice(path, False, OPENAI, replace_existing=True))
        else:
            self.dismiss(ExportChoice(path, False, OPENAI))

    def _ask_to_replace(self, choice: ExportChoice) -> None:
        """Close with `choice` once the person agrees to replace the file there; else stay."""

        def answered(replace: bool | None) -> None:
            if replace:
                self.dismiss(choice)
            else:
                self._show_problem("Not replaced: give another file.")

        self.app.push_screen(
            Confirm(
                neutralise(f"{shown_name(choice.path)} exists already. Replace it?"),
                "Replace",
                "Keep it",
                default=False,
            ),
            answered,
        )

    def action_cancel(self) -> None:
        """Close without exporting."""
        self.dismiss(None)

    def _show_problem(self, problem: str) -> None:
        self.query_one("#problem", Static).update(Content(problem))
