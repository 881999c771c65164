"""The picker and how the app is launched: `inspector DIR`, `inspector FILE`, bad paths."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from inspector.cli.main import main
from inspector.tui.app import InspectorApp
from inspector.tui.dialogs.confirm import Confirm
from inspector.tui.picker.screen import PickerScreen
from inspector.tui.review.screen import ReviewScreen
from inspector.tui.review.turn_list import TurnList
from tests.helpers.pilot import play, rows
from tests.helpers.samples import SESSIONS, copied

SAMPLES = ("memory-agent.openai.json", "finetune.openai.jsonl", "clean.openai.json")


@pytest.fixture
def samples(tmp_path: Path) -> Path:
    """A directory with copies of three sample files (five sessions) and one broken file."""
    directory = copied(SAMPLES, SESSIONS, tmp_path / "samples")
    (directory / "broken.json").write_text("[1, 2", encoding="utf-8")
    return directory


def test_picker_lists_every_session_with_format_turns_and_findings_and_opens_one(samples: Path):
    async def scenario(pilot: Pilot) -> None:
        screen = pilot.app.screen
        assert isinstance(screen, PickerScreen)
        listed = rows(screen.query_one(DataTable))
        assert [row[0] for row in listed] == [
            "broken.json",
            "clean.openai.json",
            "finetune.openai.jsonl",
            "finetune.openai.jsonl",
            "finetune.openai.jsonl",
            "memory-agent.openai.json",
        ]
        assert listed[0][4] == "unreadable" and "broken.json" in listed[0][2]
        assert listed[1][2:] == ["none", "12", "openai", ""]  # no finding: no review status
        assert listed[3][1] == "line 2" and listed[3][2] == "1 result-prefix"
        assert listed[5][2:4] == ["6 result-prefix", "35"]

        await pilot.press("down", "down", "down", "enter")  # finetune's second session
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        review = pilot.app.screen
        assert isinstance(review, ReviewScreen) and review.session_index == 1
        assert review.query_one(TurnList).position == review.review.findings(1)[0].turn
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is screen
        await pilot.press("up", "up", "up", "enter")  # the unreadable file: said, nothing opened
        await pilot.pause()
        assert pilot.app.screen is screen
        assert [(n.title, n.message) for n in pilot.app._notifications] == [
            (
                "broken.json could not be read",
                f"{samples / 'broken.json'}: line 1 column 6: invalid JSON (Expecting ',' delimiter)",
            )
        ]

    play(InspectorApp(samples), scenario, settled=True)


def test_enter_on_an_unreadable_file_says_why_in_full_as_plain_text(tmp_path: Path):
    hostile = tmp_path / "notes\x1b]0;owned\x07[b].json"  # a name that retitles the terminal if sent
    hostile.write_text('{"messages": [{"role": "user", "content": "' + "x" * 200, encoding="utf-8")
    shutil.copy(SESSIONS / "clean.openai.json", tmp_path / "clean.json")
    shown = "notes\\x1b]0;owned\\x07[b].json"

    async def scenario(pilot: Pilot) -> None:
        table = pilot.app.screen.query_one(DataTable)
        reason = str(table.get_row_at(1)[2])
        assert rows(table)[1][4] == "unreadable"
        await pilot.press("down", "enter")
        await pilot.pause()
        assert isinstance(pilot.app.screen, PickerScreen)
        [note] = pilot.app._notifications
        assert note.title == f'"{shown}" could not be read'
        assert note.message == reason == f'"{tmp_path / shown}": line 1 column 43: invalid JSON (Unterminated string)'
        await pilot.pause()
        toast = str(pilot.app.screen.query_one("Toast").render())
        assert toast == f"{note.title}\n{note.message}"  # as it is: no markup read, no escape sent

    play(InspectorApp(tmp_path), scenario, settled=True, notifications=True)


def test_a_session_file_opens_straight_in_review_and_escape_lists_its_sessions(samples: Path):
    async def scenario(pilot: Pilot) -> None:
        review = pilot.app.screen
        assert isinstance(review, ReviewScreen) and review.session_index == 1  # the first with findings
        await pilot.press("escape")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(pilot.app.screen, PickerScreen)
        assert len(rows(pilot.app.screen.query_one(DataTable))) == 3

    play(InspectorApp(samples / "finetune.openai.jsonl"), scenario, settled=True)


def test_a_missing_path_is_one_line_and_exit_2_before_the_app_starts(tmp_path: Path):
    done = subprocess.run(
        [sys.executable, "-m", "inspector", str(tmp_path / "nope.json")], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr == f"inspector: error: {tmp_path / 'nope.json'}: no such file or directory\n"


def test_a_session_piped_to_the_app_is_one_line_and_exit_2_before_it_starts(samples: Path):
    piped = (samples / "finetune.openai.jsonl").read_bytes()  # cat FILE | inspector /dev/stdin
    done = subprocess.run(
        [sys.executable, "-m", "inspector", "/dev/stdin"], input=piped, capture_output=True, timeout=60
    )
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode() == (
        "inspector: error: /dev/stdin: a pipe or a device, not a file or folder the app can open: save what it "
        "holds to a file and open that (inspector scan reads it as it is)\n"
    )


def test_an_empty_directory_and_two_paths_are_errors(tmp_path: Path, capsys):
    assert main([str(tmp_path)]) == 2
    assert "no session files" in capsys.readouterr().err
    assert main([str(tmp_path), str(tmp_path)]) == 2
    assert "give one session file or directory" in capsys.readouterr().err


def test_scan_and_fix_never_import_textual(tmp_path: Path):
    code = (
        "import sys\nfrom inspector.cli.main import main\n"
        f"main(['scan', {str(SESSIONS / 'memory-agent.openai.json')!r}])\n"
        "print('textual' in sys.modules, file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stderr.strip() == "False"


def test_file_names_with_markup_brackets_are_shown_as_they_are(tmp_path: Path):
    for name in ("x[b].json", "[@click=app.quit]y[$x].json"):  # no '/' in a file name: "[/]" cannot be tried
        shutil.copy(SESSIONS / "memory-agent.openai.json", tmp_path / name)

    async def scenario(pilot: Pilot) -> None:
        listed = rows(pilot.app.screen.query_one(DataTable))
        assert [row[0] for row in listed] == ["[@click=app.quit]y[$x].json", "x[b].json"]
        await pilot.press("enter")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        review = pilot.app.screen
        assert isinstance(review, ReviewScreen) and review.review is not None
        assert str(review.query_one("#bar", Static).visual).startswith("[@click=app.quit]y[$x].json · openai")
        assert (
            str(review.query_one("#loading-label", Static).visual)
            == "Scanning [@click=app.quit]y[$x].json for findings…"
        )

    play(InspectorApp(tmp_path), scenario, settled=True)


def test_quitting_from_the_picker_asks_while_decisions_are_not_exported(samples: Path):
    async def scenario(pilot: Pilot) -> None:
        picker = pilot.app.screen
        await pilot.press(*["down"] * 5, "enter")  # memory-agent
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("a", "escape")
        await pilot.pause()
        assert pilot.app.screen is picker
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(pilot.app.screen, Confirm)
        await pilot.press("n")
        await pilot.pause()
        assert pilot.app.screen is picker and pilot.app.is_running
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(pilot.app.screen, Confirm)
        await pilot.press("ctrl+q")  # asked again: quits
        await pilot.pause()
        assert not pilot.app.is_running

    play(InspectorApp(samples), scenario, settled=True)
