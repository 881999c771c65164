"""Where to export the review of a PostgreSQL server's database: a server's database cannot be
copied like a file, so the dialog offers what `inspector fix` does there: write the repair into the
database in place (ticked on purpose, as overwriting an SQLite file is; the audit tables keep each
change's before-value and `inspector undo URL` reverts it), or the repaired conversations as OpenAI
Chat Completions JSON in a new file (`fix -o OUT --to openai`)."""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, Checkbox, Input, Static

from inspector.model import ServerUrl
from inspector.sources.formats.openai import NAME as OPENAI  # an export may be written as OpenAI JSON
from inspector.support.safe_text import neutralise, shown_name
from inspector.tui.dialogs.export_frame import ExportChoice, ExportFrame
from inspector.tui.dialogs.frame import DIALOG_CSS, SpaceToggles


class ServerExportDialog(ExportFrame):
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
        self.show_problem("")

    @on(Input.Changed, "#path")
    def _path_changed(self) -> None:
        self.show_problem("")

    def action_export(self) -> None:
        """Close with the choice: in place, or a new file (after agreeing to replace one that
        exists); or say in one line why the path cannot be used."""
        if self.query_one("#in-place", Checkbox).value:
            self.dismiss(ExportChoice(self.url, overwrite_input=True))
            return
        path = self.typed_path()
        if path is None:
            return
        if path.exists():
            self.ask_to_replace(ExportChoice(path, False, OPENAI, replace_existing=True))
        else:
            self.dismiss(ExportChoice(path, False, OPENAI))
