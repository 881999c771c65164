"""The fix editor: the proposed text and calls, editable, checked as the person types.

The screen holds no parsing or validation of its own: every arguments text goes through
`inspector.review.edits.check_arguments`, and an edit that does not pass cannot be applied. A long
text or arguments can be handed to the person's own editor (`inspector.tui.review.external_editor`) and
read back into the field, where it is checked as if typed.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Static, TextArea

from inspector.model import ToolSpec
from inspector.review.edits import ArgumentsCheck, Edit, EditedCall, check_arguments
from inspector.support.safe_text import neutralise
from inspector.tui.dialogs.confirm import Confirm
from inspector.tui.review.external_editor import EditorFailed, edit_externally, editor_command, hand_over

ToolLookup = Callable[[str], "ToolSpec | None"]
CONTROL_NOTE = (
    "Control characters are shown as \\xNN escapes: left untouched they are kept as they were; "
    "if you edit the text, it is saved as shown."
)


class CallEditor(Vertical):
    """One call of the fix: the tool's name, its arguments as JSON, and one line saying whether
    they can be applied (why not, or the notes on how they were read)."""

    DEFAULT_CSS = """
    CallEditor {
        height: auto;
        margin-top: 1;
    }
    CallEditor Input {
        width: 60;
    }
    CallEditor TextArea {
        height: auto;
        max-height: 14;
    }
    CallEditor .status { height: auto; }
    CallEditor .status.-invalid { color: $text-error; }
    CallEditor .status.-noted { color: $text-warning; }
    CallEditor .status.-valid { color: $text-success; }
    """

    def __init__(self, index: int, call: EditedCall, spec: ToolSpec | None, lookup: ToolLookup | None) -> None:
        super().__init__(id=f"call-{index}")
        self.index = index
        self.original = call
        self.spec = spec
        self.lookup = lookup
        self._shown_name = neutralise(call.name)
        self._shown_arguments = json.dumps(call.arguments, indent=2, ensure_ascii=False)
        self.checked_against = spec
        self.check: ArgumentsCheck = check_arguments(self._shown_arguments, spec)

    def compose(self) -> ComposeResult:
        yield Static(Content(f"Call {self.index + 1}: tool name"), classes="label")
        yield Input(self._shown_name, classes="name")
        yield Static(Content("arguments (JSON)"), classes="label")
        yield TextArea(
            self._shown_arguments,
            language="json",
            soft_wrap=True,
            show_line_numbers=True,
            tab_behavior="focus",
            classes="arguments",
        )
        yield Static(classes="status")

    def on_mount(self) -> None:
        self._show_check()

    @property
    def name_value(self) -> str:
        """The tool's name as the person wants it (the original, control characters included,
        when they did not touch it)."""
        typed = self.query_one(Input).value.strip()
        return self.original.name if typed == self._shown_name else typed

    @property
    def arguments_editor(self) -> TextArea:
        """The arguments' text area."""
        return self.query_one(".arguments", TextArea)

    @property
    def changed(self) -> bool:
        """Whether the person changed the name or the arguments."""
        return self.name_value != self.original.name or self.arguments_editor.text != self._shown_arguments

    @property
    def problem(self) -> str | None:
        """Why this call cannot be applied as it stands, or None."""
        if not self.name_value:
            return "the tool name is empty"
        return self.check.error

    def edited(self) -> EditedCall:
        """The call as edited; only meaningful when `problem` is None."""
        assert self.check.arguments is not None
        return EditedCall(self.name_value, self.check.arguments)

    @on(Input.Changed)
    @on(TextArea.Changed)
    def _recheck(self) -> None:
        name = self.name_value
        spec = self.spec if name == self.original.name else (self.lookup(name) if self.lookup else None)
        self.checked_against = spec
        self.check = check_arguments(self.arguments_editor.text, spec)
        self._show_check()
        self.query_one(".status").scroll_visible(animate=False)  # on a short terminal too

    def _show_check(self) -> None:
        status = self.query_one(".status", Static)
        problem, notes = self.problem, " · ".join(self.check.notes)
        if problem:
            line, state = f"✗ cannot apply: {problem}", "-invalid"
        else:
            schema = f" for {self.checked_against.name}'s schema" if self.checked_against else ""
            line, state = f"✓ valid{schema}{': ' + notes if notes else ''}", "-noted" if notes else "-valid"
        status.set_classes(f"status {state}")
        status.update(Content(neutralise(line)))


class FixEditor(ModalScreen[Edit | None]):
    """Edit a proposed fix: the turn's text after it, each call's name and arguments, and for a
    fix that masks a secret, the mask written in its place everywhere the session holds it.

    `tools[i]` is the schema of `proposal.calls[i]` (None when unknown); `lookup`, when given,
    finds the schema of a tool the person renames a call to. ctrl+s applies (only when every
    call passes its check), escape cancels (asking first when something was changed), ctrl+g
    opens the text or the arguments being edited in `$VISUAL` / `$EDITOR`."""

    DEFAULT_CSS = """
    FixEditor {
        align: center middle;
    }
    FixEditor > Vertical {
        width: 100;
        max-width: 95%;
        height: 90%;
        padding: 0 1;
        border: thick $primary;
        background: $surface;
    }
    FixEditor #text {
        height: auto;
        min-height: 3;
        max-height: 10;
    }
    FixEditor .hint {
        color: $text-muted;
        margin-top: 1;
    }
    FixEditor #blocked {
        color: $text-error;
        height: auto;
    }
    """
    BINDINGS = [
        Binding("ctrl+s", "apply", "Apply", priority=True),
        Binding("escape", "cancel", "Cancel", priority=True),
        Binding("ctrl+g", "external_edit", "Open in $EDITOR"),
    ]

    def __init__(
        self,
        proposal: Edit,
        tools: tuple[ToolSpec | None, ...],
        title: str,
        lookup: ToolLookup | None = None,
    ) -> None:
        super().__init__()
        self.proposal = proposal
        self.tools = tools
        self.editor_title = title
        self.lookup = lookup
        self._shown_text = neutralise(proposal.text)

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = Content(neutralise(self.editor_title))
            with VerticalScroll():
                yield Static(Content("Text after the fix"), classes="label")
                yield TextArea(self._shown_text, soft_wrap=True, tab_behavior="focus", id="text")
                if self._shown_text != self.proposal.text:
                    yield Static(Content(CONTROL_NOTE), classes="hint")
                if self.proposal.mask is not None:
                    yield Static(Content("Mask written in place of the secret, everywhere the session holds it"))
                    yield Input(neutralise(self.proposal.mask), id="mask")
                for index, call in enumerate(self.proposal.calls):
                    spec = self.tools[index] if index < len(self.tools) else None
                    yield CallEditor(index, call, spec, self.lookup)
            yield Static(id="blocked")
            yield Static(
                Content("ctrl+s apply · escape cancel · tab next field · ctrl+z undo typing · ctrl+g edit in $EDITOR"),
                classes="hint",
            )

    def on_mount(self) -> None:
        self.query_one("#text", TextArea).focus()

    @property
    def text_value(self) -> str:
        """The text as the person wants it (the original, control characters included, when they
        did not touch it)."""
        typed = self.query_one("#text", TextArea).text
        return self.proposal.text if typed == self._shown_text else typed

    @property
    def mask_value(self) -> str | None:
        """The mask as the person wants it (None for a fix that masks no secret)."""
        if self.proposal.mask is None:
            return None
        typed = self.query_one("#mask", Input).value.strip()
        return self.proposal.mask if typed == neutralise(self.proposal.mask) else typed

    @property
    def changed(self) -> bool:
        """Whether the person changed anything."""
        return (
            self.text_value != self.proposal.text
            or self.mask_value != self.proposal.mask
            or any(call.changed for call in self.query(CallEditor))
        )

    @on(Input.Changed)
    @on(TextArea.Changed)
    def _clear_blocked(self) -> None:
        self.query_one("#blocked", Static).update("")

    def action_apply(self) -> None:
        """Close with the edit, or say which call stops it and put the cursor there."""
        calls = list(self.query(CallEditor))
        if self.mask_value == "":
            self.query_one("#blocked", Static).update(Content("Not applied: the mask is empty."))
            self.query_one("#mask", Input).focus()
            self.app.bell()
            return
        for call in calls:
            if call.problem:
                self.query_one("#blocked", Static).update(Content(f"Not applied: correct call {call.index + 1} first."))
                (call.arguments_editor if call.name_value else call.query_one(Input)).focus()
                self.app.bell()
                return
        self.dismiss(Edit(self.text_value, tuple(call.edited() for call in calls), self.mask_value))

    def action_external_edit(self) -> None:
        """Hand the text, or the arguments being edited, to the person's editor and put what it
        leaves back into the field (checked as if typed); one line says why when it cannot."""
        area = self._field_to_hand_over()
        try:
            argv = editor_command()
            edited = hand_over(self.app, lambda: edit_externally(area.text, _suffix(area), argv))
        except EditorFailed as failure:
            self.app.notify(neutralise(str(failure)), severity="warning", markup=False, timeout=8)
            return
        if edited != area.text:
            area.replace(edited, (0, 0), area.document.end)
        area.focus()

    def _field_to_hand_over(self) -> TextArea:
        """The arguments of the call being edited (its name or its arguments focused), else the text."""
        focused = self.focused
        call = next((node for node in (focused.ancestors if focused else ()) if isinstance(node, CallEditor)), None)
        return call.arguments_editor if call is not None else self.query_one("#text", TextArea)

    def action_cancel(self) -> None:
        """Close without an edit; ask first when the person changed something."""
        if not self.changed:
            self.dismiss(None)
            return

        async def answered(discard: bool | None) -> None:
            if discard:
                await self.dismiss(None)

        question = Confirm("Discard your changes to this fix?", yes="Discard", no="Keep editing", default=False)
        self.app.push_screen(question, answered)


def _suffix(area: TextArea) -> str:
    """The temporary file's suffix, so the editor highlights JSON arguments as JSON."""
    return ".txt" if area.id == "text" else ".json"
