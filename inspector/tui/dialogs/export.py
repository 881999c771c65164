"""Where (and as what) to export the repaired session of a file: a new file, or over the input."""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, Checkbox, Input, Static

from inspector.sources.formats.openai import NAME as OPENAI  # an export may be written as OpenAI JSON
from inspector.support.safe_text import neutralise, shown_name
from inspector.tui.dialogs.export_frame import ExportChoice, ExportFrame
from inspector.tui.dialogs.frame import DIALOG_CSS, SpaceToggles


class ExportDialog(ExportFrame):
    """Ask where to export: a path (NAME.fixed.EXT beside the input by default), or the input
    itself when the person ticks "overwrite"; in the session's own format, or as OpenAI Chat
    Completions JSON when the person ticks "as OpenAI" (then at `openai_path` by default, never
    over the input). It says first what the export will do (`plan`), and is as wide as the
    screen allows. A file that exists already is replaced only after the person agrees
    (`Confirm`). Enter or ctrl+s exports, escape cancels. Reopened after an export failed, it
    holds the `earlier` choice (the path typed, the boxes ticked) and says why (`problem`)."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="ExportDialog")
        + """
    ExportDialog > Vertical {
        width: 100%;
        max-width: 160;
        margin: 0 2;
    }
    ExportDialog #plan {
        margin-bottom: 1;
        text-style: bold;
    }
    ExportDialog #problem {
        color: $text-error;
        height: auto;
    }
    """
    )

    def __init__(
        self,
        default_path: Path,
        input_path: Path,
        openai_path: Path | None = None,
        plan: str = "",
        earlier: ExportChoice | None = None,
        problem: str = "",
    ) -> None:
        super().__init__()
        self.default_path = default_path
        self.input_path = input_path
        self.openai_path = openai_path or default_path.with_name(default_path.name.split(".", 1)[0] + ".openai.json")
        self.plan = plan
        self.earlier = earlier
        self.problem = problem
        typed = earlier.path if earlier is not None and not earlier.overwrite_input else default_path
        self._typed_path = str(typed)

    def compose(self) -> ComposeResult:
        overwrite = self.earlier is not None and self.earlier.overwrite_input
        openai = self.earlier is not None and self.earlier.to == OPENAI
        self._opened_with: str | None = str(self.input_path) if overwrite else self._typed_path
        with Vertical():
            if self.plan:
                yield Static(Content(self.plan), id="plan")
            yield Static("Write the repaired session and its audit record to:")
            yield Input(self._opened_with, id="path", disabled=overwrite)
            yield SpaceToggles(
                Content(
                    neutralise(f"overwrite the input (a backup {shown_name(self.input_path.name + '.bak')} is kept)")
                ),
                overwrite,
                id="overwrite",
                disabled=openai,
            )
            yield SpaceToggles(Content("as OpenAI Chat Completions JSON"), openai, id="openai", disabled=overwrite)
            yield Static(Content(neutralise(self.problem)), id="problem")
            yield Static(Content("enter export · space tick a box · escape cancel"), classes="hint")
            with Horizontal(classes="buttons"):
                yield Button("Export", variant="primary", id="export")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#overwrite" if self.earlier is not None and self.earlier.overwrite_input else "#path").focus()

    @on(Checkbox.Changed, "#overwrite")
    def _overwrite_changed(self, event: Checkbox.Changed) -> None:
        path = self.query_one("#path", Input)
        if event.value:
            self._typed_path = path.value
            path.value = str(self.input_path)
        else:
            path.value = self._typed_path
        path.disabled = event.value
        self.query_one("#openai", Checkbox).disabled = event.value
        self.show_problem("")

    @on(Checkbox.Changed, "#openai")
    def _openai_changed(self, event: Checkbox.Changed) -> None:
        """As OpenAI: a new file (the input is never overwritten), at its own default path unless
        the person typed another."""
        path = self.query_one("#path", Input)
        own, openai = str(self.default_path), str(self.openai_path)
        if path.value == (own if event.value else openai):
            path.value = openai if event.value else own
        self.query_one("#overwrite", Checkbox).disabled = event.value
        self.show_problem("")

    @on(Input.Changed, "#path")
    def _path_changed(self, event: Input.Changed) -> None:
        """A path typed clears what was said of the one before (the box's first report of the path
        it opened with does not)."""
        if event.value == self._opened_with:
            self._opened_with = None
            return
        self.show_problem("")

    def action_export(self) -> None:
        """Close with the chosen path, or say in one line why it cannot be used; a file that
        exists already is replaced only once the person agrees."""
        overwrite = self.query_one("#overwrite", Checkbox).value
        to = OPENAI if self.query_one("#openai", Checkbox).value else None
        path = self.typed_path()
        if path is None:
            return
        if not overwrite and _same_file(path, self.input_path):
            self.show_problem("That is the input: tick “overwrite the input” to replace it.")
        elif not overwrite and path.exists():
            self.ask_to_replace(ExportChoice(path, overwrite, to, replace_existing=True))
        else:
            self.dismiss(ExportChoice(path, overwrite, to))


def _same_file(a: Path, b: Path) -> bool:
    """Whether two paths name the same file (also when one of them does not exist yet)."""
    return a.resolve() == b.resolve()
