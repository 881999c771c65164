"""The fix editor, driven by keys: it checks as the person types and only applies a usable edit."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static, TextArea

from inspector.model import ToolSpec
from inspector.review.edits import Edit, EditedCall
from inspector.tui.dialogs.confirm import Confirm
from inspector.tui.review.editor import FixEditor
from tests.helpers.dialog_host import Host
from tests.helpers.pilot import play

pytestmark = pytest.mark.slow  # drives the editor with Pilot

SAVE_MEMORY = ToolSpec(
    "save_memory",
    {
        "type": "object",
        "properties": {
            "memory_type": {"type": "string", "enum": ["journal", "core", "fact"]},
            "content": {"type": "string"},
        },
        "required": ["memory_type", "content"],
    },
)
SAVED = {"memory_type": "journal", "content": "Call mum on Sunday"}
PROPOSAL = Edit("You saw right through me.", (EditedCall("save_memory", SAVED),))


def editor(proposal: Edit = PROPOSAL, tools=(SAVE_MEMORY,), lookup=None) -> Host:
    return Host(FixEditor(proposal, tools, "turn 3 · result-prefix · save_memory", lookup))


async def retype(pilot: Pilot, selector: str, text: str, *, by_key: bool = False) -> None:
    """Focus a text area, select everything in it (f7) and type `text` over it, key by key or
    pasted (ctrl+v) from the clipboard."""
    pilot.app.screen.query_one(selector, TextArea).focus()
    if by_key:
        await pilot.press("f7", *["enter" if char == "\n" else char for char in text])
    else:
        pilot.app.copy_to_clipboard(text)
        await pilot.press("f7", "ctrl+v")


async def rename(pilot: Pilot, name: str) -> None:
    """Clear the first call's tool name (end, ctrl+u) and paste `name`."""
    pilot.app.screen.query_one("#call-0 Input", Input).focus()
    await pilot.press("end", "ctrl+u")
    if name:
        pilot.app.copy_to_clipboard(name)
        await pilot.press("ctrl+v")


def status(app: Host, call: int = 0) -> str:
    return str(app.screen.query_one(f"#call-{call} .status", Static).render())


def test_invalid_json_is_shown_and_cannot_be_applied():
    app = editor()

    async def scenario(pilot: Pilot) -> None:
        await retype(pilot, "#call-0 .arguments", '{"a": 1,,}', by_key=True)
        assert status(app).startswith("✗ cannot apply: not JSON:") and "(line 1, column 9)" in status(app)
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, FixEditor) and app.results == []
        assert str(app.screen.query_one("#blocked", Static).render()) == "Not applied: correct call 1 first."
        await retype(pilot, "#call-0 .arguments", '{"memory_type": "fact", "content": "x"}')
        assert status(app) == "✓ valid for save_memory's schema"
        assert str(app.screen.query_one("#blocked", Static).render()) == ""
        await pilot.press("ctrl+s")

    play(app, scenario)
    assert app.results == [Edit(PROPOSAL.text, (EditedCall("save_memory", {"memory_type": "fact", "content": "x"}),))]


def test_js_style_arguments_are_accepted_with_a_note():
    app = editor(Edit("", (EditedCall("lookup", {"a": 2}),)), tools=(None,))

    async def scenario(pilot: Pilot) -> None:
        await retype(pilot, "#call-0 .arguments", "{a: 1}")
        assert status(app).startswith("✓ valid: read as JS-style")
        assert "no schema is known" in status(app)
        await pilot.press("ctrl+s")

    play(app, scenario)
    assert app.results == [Edit("", (EditedCall("lookup", {"a": 1}),))]


@pytest.mark.parametrize(
    ("arguments", "named"),
    [
        ('{"memory_type": "diary", "content": "x"}', ["memory_type", "'diary' is not one of"]),
        ('{"memory_type": "journal"}', ["'content' is a required property"]),
        ("[1, 2]", ["must be an object"]),
    ],
)
def test_schema_violations_block_with_a_message_naming_them(arguments, named):
    app = editor()

    async def scenario(pilot: Pilot) -> None:
        await retype(pilot, "#call-0 .arguments", arguments)
        assert status(app).startswith("✗ cannot apply:") and all(part in status(app) for part in named)
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, FixEditor)

    play(app, scenario)
    assert app.results == []


def test_a_valid_edit_of_text_and_arguments_is_applied():
    app = editor()

    async def scenario(pilot: Pilot) -> None:
        await retype(pilot, "#text", "Saved.")
        await retype(pilot, "#call-0 .arguments", '{"memory_type": "core", "content": "Call mum"}')
        await pilot.press("ctrl+s")

    play(app, scenario)
    assert app.results == [Edit("Saved.", (EditedCall("save_memory", {"memory_type": "core", "content": "Call mum"}),))]


def test_renaming_the_tool_checks_against_the_new_tools_schema():
    unknown = Edit("ok", (EditedCall("save_memmory", {"memory_type": "diary", "content": "x"}),))
    app = editor(unknown, tools=(None,), lookup={"save_memory": SAVE_MEMORY}.get)

    async def scenario(pilot: Pilot) -> None:
        assert "no schema is known" in status(app)
        await rename(pilot, "save_memory")
        assert "'diary' is not one of" in status(app)
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, FixEditor)
        await retype(pilot, "#call-0 .arguments", '{"memory_type": "journal", "content": "x"}')
        await pilot.press("ctrl+s")

    play(app, scenario)
    assert app.results == [Edit("ok", (EditedCall("save_memory", {"memory_type": "journal", "content": "x"}),))]


def test_renaming_without_a_lookup_and_an_empty_name():
    app = editor()

    async def scenario(pilot: Pilot) -> None:
        await rename(pilot, "")
        assert status(app) == "✗ cannot apply: the tool name is empty"
        await pilot.press("ctrl+s")
        assert app.focused is app.screen.query_one("#call-0 Input")
        await pilot.press(*"remember")
        await pilot.press("ctrl+s")

    play(app, scenario)
    assert app.results == [Edit(PROPOSAL.text, (EditedCall("remember", SAVED),))]


def test_escape_without_changes_cancels_at_once():
    app = editor()

    async def scenario(pilot: Pilot) -> None:
        await pilot.press("escape")

    play(app, scenario)
    assert app.results == [None]


def test_escape_with_changes_asks_first():
    app = editor()

    async def scenario(pilot: Pilot) -> None:
        await retype(pilot, "#text", "changed")
        await pilot.press("escape")
        assert isinstance(app.screen, Confirm)
        await pilot.press("n")
        assert isinstance(app.screen, FixEditor) and app.screen.query_one("#text", TextArea).text == "changed"
        await pilot.press("escape", "enter")  # enter keeps editing: a stray enter loses nothing
        assert isinstance(app.screen, FixEditor) and app.results == []
        await pilot.press("escape", "y")

    play(app, scenario)
    assert app.results == [None]


def test_control_characters_are_shown_escaped_and_kept_when_untouched():
    proposal = Edit("\x1b[31mred\x1b[0m [b]not markup[/b]", (EditedCall("say\x07", {"text": "\x1b]0;title\x07"}),))
    app = editor(proposal, tools=(None,))

    async def scenario(pilot: Pilot) -> None:
        assert app.screen.query_one("#text", TextArea).text == "\\x1b[31mred\\x1b[0m [b]not markup[/b]"
        assert app.screen.query_one("#call-0 Input", Input).value == "say\\x07"
        assert "\\u001b]0;title\\u0007" in app.screen.query_one("#call-0 .arguments", TextArea).text
        await pilot.press("ctrl+s")

    play(app, scenario)
    assert app.results == [proposal]


def test_a_fix_without_calls_edits_the_text_only():
    app = editor(Edit("Hello {x}", ()), tools=())

    async def scenario(pilot: Pilot) -> None:
        assert app.focused is app.screen.query_one("#text")
        await pilot.press("end", "!", "ctrl+s")

    play(app, scenario)
    assert app.results == [Edit("Hello {x}!", ())]


def test_editor_snapshot_with_an_invalid_edit(snap_compare):
    two_calls = Edit(
        "You saw right through me. [I will] remember it.",
        (EditedCall("save_memory", SAVED), EditedCall("whiteboard", {"action": "get"})),
    )

    async def break_the_arguments(pilot: Pilot) -> None:
        await retype(pilot, "#call-0 .arguments", '{"memory_type": "diary",\n "content": "Call mum"}')
        await pilot.press("ctrl+s")

    assert snap_compare(
        editor(two_calls, tools=(SAVE_MEMORY, None)), terminal_size=(120, 40), run_before=break_the_arguments
    )


def fake_editor(tmp_path: Path, body: str) -> Path:
    """An executable editor script: `body` runs with `path` (the file to edit) and `text` (its text)
    set, and `path` is logged to `edited.log`."""
    script = tmp_path / "fake-editor"
    script.write_text(
        f"#!{sys.executable}\nimport pathlib, sys\npath = pathlib.Path(sys.argv[-1])\n"
        f"pathlib.Path({str(tmp_path / 'edited.log')!r}).write_text(str(path))\n"
        f"text = path.read_text(encoding='utf-8')\n{body}\n",
        encoding="utf-8",
    )
    script.chmod(0o755)
    return script


def test_the_editor_opens_on_the_text():
    app = editor()

    async def scenario(pilot: Pilot) -> None:
        assert app.focused is app.screen.query_one("#text")
        await pilot.press("escape")

    play(app, scenario)


def test_ctrl_g_hands_the_text_then_the_arguments_to_the_editor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    # vi-like: ends the file with a line ending; JSON arguments edited, the text replaced
    script = fake_editor(
        tmp_path,
        "if path.suffix == '.json':\n    path.write_text(text.replace('journal', 'core') + '\\n')\n"
        "else:\n    path.write_text('A long reply, rewritten in my editor.\\n')",
    )
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", str(script))
    app = editor()

    async def scenario(pilot: Pilot) -> None:
        await pilot.press("ctrl+g")
        assert app.screen.query_one("#text", TextArea).text == "A long reply, rewritten in my editor."
        assert app.focused is app.screen.query_one("#text")
        app.screen.query_one("#call-0 Input", Input).focus()  # from the call's name: its arguments
        await pilot.press("ctrl+g")
        await pilot.pause()
        assert '"memory_type": "core"' in app.screen.query_one("#call-0 .arguments", TextArea).text
        assert status(app) == "✓ valid for save_memory's schema"
        await pilot.press("ctrl+s")

    play(app, scenario)
    assert app.results == [
        Edit("A long reply, rewritten in my editor.", (EditedCall("save_memory", {**SAVED, "memory_type": "core"}),))
    ]
    assert not Path((tmp_path / "edited.log").read_text()).exists()  # the temporary file is gone


def test_arguments_back_from_the_editor_are_checked_as_typed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("VISUAL", str(fake_editor(tmp_path, "path.write_text(text.replace('journal', 'diary'))")))
    app = editor()

    async def scenario(pilot: Pilot) -> None:
        app.screen.query_one("#call-0 .arguments", TextArea).focus()
        await pilot.press("ctrl+g")
        await pilot.pause()
        assert status(app).startswith("✗ cannot apply:") and "'diary' is not one of" in status(app)
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, FixEditor)
        await pilot.press("ctrl+z")  # the editor's change is one step of undo
        await pilot.pause()
        assert status(app) == "✓ valid for save_memory's schema"
        await pilot.press("ctrl+s")

    play(app, scenario)
    assert app.results == [PROPOSAL]


def test_a_missing_editor_is_one_line_and_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", str(tmp_path / "no-such-editor") + " --wait")
    app = editor()
    notes: list[str] = []

    async def scenario(pilot: Pilot) -> None:
        await pilot.press("ctrl+g")
        await pilot.pause()
        notes.extend(notification.message for notification in app._notifications)
        assert isinstance(app.screen, FixEditor) and app.screen.query_one("#text", TextArea).text == PROPOSAL.text
        await pilot.press("ctrl+s")

    play(app, scenario)
    assert notes == [
        f"$EDITOR names {str(tmp_path / 'no-such-editor')!r}, which cannot be run: set $VISUAL or "
        "$EDITOR to your editor"
    ]
    assert app.results == [PROPOSAL]
