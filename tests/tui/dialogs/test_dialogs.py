"""The TUI's small dialogs, driven by keys through a host app that records what they return."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Checkbox, Input, Static

from inspector.tui.dialogs.confirm import Confirm
from inspector.tui.dialogs.export import ExportDialog
from inspector.tui.dialogs.export_frame import ExportChoice
from inspector.tui.help import HelpScreen
from tests.helpers.dialog_host import Host
from tests.helpers.pilot import play


def shown_text(widget: Widget) -> str:
    """What `widget` shows on screen, line by line."""
    return "\n".join(strip.text.rstrip() for strip in widget.render_lines(Region(0, 0, *widget.size)))


@pytest.mark.parametrize(
    ("keys", "answer"),
    [(["y"], True), (["n"], False), (["enter"], True), (["escape"], False), (["tab", "enter"], False)],
)
def test_confirm_answers_by_key(keys, answer):
    app = Host(Confirm("Quit without exporting 3 decisions?", yes="Quit", no="Stay"))

    async def scenario(pilot: Pilot) -> None:
        await pilot.press(*keys)

    play(app, scenario)
    assert app.results == [answer]


@pytest.mark.parametrize(("keys", "answer"), [(["enter"], False), (["shift+tab", "enter"], True), (["y"], True)])
def test_confirm_defaulting_to_no(keys, answer):
    app = Host(Confirm("Discard your changes?", yes="Discard", no="Keep editing", default=False))

    async def scenario(pilot: Pilot) -> None:
        await pilot.press(*keys)

    play(app, scenario)
    assert app.results == [answer]


def test_confirm_shows_the_question_as_plain_text():
    question = "Approve all [bold]x[/bold] findings?"
    app = Host(Confirm(question))

    async def scenario(pilot: Pilot) -> None:
        assert str(app.screen.query_one("#question", Static).render()) == question
        await pilot.press("y")

    play(app, scenario)
    assert app.results == [True]


@pytest.fixture
def session_file(tmp_path: Path) -> Path:
    path = tmp_path / "dump.json"
    path.write_text("[]")
    return path


def export_dialog(session_file: Path) -> Host:
    return Host(ExportDialog(session_file.with_name("dump.fixed.json"), session_file))


def press(app: App, *keys: str) -> None:
    """Run `app` and press `keys`."""

    async def scenario(pilot: Pilot) -> None:
        await pilot.press(*keys)

    play(app, scenario)


@pytest.mark.parametrize("key", ["enter", "ctrl+s"])
def test_export_default_path(session_file, key):
    app = export_dialog(session_file)
    press(app, key)
    assert app.results == [ExportChoice(session_file.with_name("dump.fixed.json"), False)]


def test_export_typed_path(session_file):
    app = export_dialog(session_file)
    press(app, "end", "ctrl+u", *"out.json", "enter")
    assert app.results == [ExportChoice(Path("out.json"), False)]


def test_export_escape_cancels(session_file):
    app = export_dialog(session_file)
    press(app, "escape")
    assert app.results == [None]


@pytest.mark.parametrize(
    ("typed", "problem"),
    [("   ", "Give a file to write to."), ("{dir}", "is a directory"), ("{input}", "That is the input")],
)
def test_export_refuses_with_one_line(session_file, typed, problem):
    app = export_dialog(session_file)

    async def scenario(pilot: Pilot) -> None:
        app.screen.query_one("#path", Input).value = typed.format(dir=session_file.parent, input=session_file)
        await pilot.press("enter")
        shown = str(app.screen.query_one("#problem", Static).render())
        assert problem in shown and "\n" not in shown
        assert app.results == [] and isinstance(app.screen, ExportDialog)
        await pilot.press("escape")

    play(app, scenario)
    assert app.results == [None]


def test_export_overwrite_sets_the_input_and_unticking_restores(session_file):
    app = export_dialog(session_file)

    async def scenario(pilot: Pilot) -> None:
        path = app.screen.query_one("#path", Input)
        path.value = "mine.json"
        await pilot.press("tab", "space")
        assert app.screen.query_one("#overwrite", Checkbox).value
        assert path.value == str(session_file) and path.disabled
        await pilot.press("space")
        assert path.value == "mine.json" and not path.disabled
        await pilot.press("space", "enter")

    play(app, scenario)
    assert app.results == [ExportChoice(session_file, True)]


@pytest.mark.parametrize(("button", "result"), [("#cancel", None), ("#export", ExportChoice(Path("x.json"), False))])
def test_export_buttons(session_file, button, result):
    app = Host(ExportDialog(Path("x.json"), session_file))

    async def scenario(pilot: Pilot) -> None:
        await pilot.click(button)

    play(app, scenario)
    assert app.results == [result]


def test_help_scrolls_on_a_short_terminal():
    keys = [(f"key {i}", f"action {i}") for i in range(30)]
    app = Host(HelpScreen(keys))

    async def scenario(pilot: Pilot) -> None:
        box = app.screen.query_one("VerticalScroll")
        assert app.focused is box and box.max_scroll_y > 0
        assert app.screen.query_one("#keys").size.height == len(keys) + 1
        await pilot.press("end")
        assert box.scroll_target_y == box.max_scroll_y

    play(app, scenario, size=(80, 24))


@pytest.mark.parametrize("close", ["escape", "q", "question_mark"])
def test_help_lists_every_key_and_closes(close):
    keys = [("n / N", "next / previous flagged turn"), ("a", "approve"), ("?", "this help")]
    app = Host(HelpScreen(keys))

    async def scenario(pilot: Pilot) -> None:
        shown = [line.split() for line in shown_text(app.screen.query_one("#keys")).splitlines()]
        assert shown == [["key", "what", "it", "does"]] + [[*key.split(), *action.split()] for key, action in keys]
        await pilot.press(close)

    play(app, scenario)
    assert app.results == [None]


def test_help_snapshot(snap_compare):
    keys = [
        ("j / k", "move to the next / previous turn"),
        ("n / N", "next / previous flagged turn"),
        ("a", "approve the fix"),
        ("e", "edit the fix"),
        ("s", "skip the finding"),
        ("u", "undo the last decision"),
        ("A", "approve every pending finding of this kind"),
        ("f", "show only flagged turns"),
        ("/", "search turn text"),
        ("y", "copy the recovered arguments"),
        ("x", "export the repaired session"),
        ("?", "this help"),
        ("q", "quit"),
    ]
    assert snap_compare(Host(HelpScreen(keys)), terminal_size=(120, 40))


def test_export_shows_a_hostile_file_name_as_plain_text(tmp_path: Path):
    hostile = tmp_path / "chat\x1b]0;owned\x07.json"  # retitles the terminal if sent
    hostile.write_text("[]", encoding="utf-8")
    app = Host(ExportDialog(tmp_path / "chat.fixed.json", hostile))

    async def scenario(pilot: Pilot) -> None:
        await pilot.pause()
        label = str(app.screen.query_one("#overwrite", Checkbox).label)
        assert "chat\\x1b]0;owned\\x07.json.bak" in label and "\x1b" not in label and "\x07" not in label

    play(app, scenario)
