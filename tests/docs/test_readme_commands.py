"""The README is a front door that works: under 8 KB, and every command in its shell blocks runs
as pasted from the root of a fresh clone. The CLI's commands run as a person runs them (the
`inspector` script, in a temporary folder laid out like the clone's root, so nothing is written
into the repository) and exit as the README says: 1 when they report findings, 0 otherwise. The
lines that open the app run in this process under Textual's Pilot; the install and test lines name
extras and markers that exist."""

from __future__ import annotations

import asyncio
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from textual.widgets import DataTable

from inspector.cli.main import main
from inspector.scan.scanner import scan_file
from inspector.tui.app import InspectorApp
from inspector.tui.picker.screen import PickerScreen
from inspector.tui.review.screen import ReviewScreen
from inspector.tui.review.turn_list import TurnList
from tests.helpers.samples import ROOT, SESSIONS
from tests.helpers.scanning import fix_exit_code

pytestmark = pytest.mark.slow  # runs the README's commands from a fresh clone and opens the app

README = ROOT / "README.md"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
COMMANDS = ("scan", "report", "fix", "undo")
SCRIPT = Path(sys.executable).with_name("inspector")  # the console script the install put beside python


def shell_lines() -> list[list[str]]:
    """Each command of the README's shell blocks, split as the shell splits it (comments dropped;
    `a && b` is two commands)."""
    blocks = re.findall(r"^```sh\n(.*?)^```", README.read_text(encoding="utf-8"), re.M | re.S)
    commands: list[list[str]] = []
    for line in "\n".join(blocks).splitlines():
        for command in line.split(" && "):
            words = shlex.split(command, comments=True)
            if words:
                commands.append(words)
    return commands


def cli_commands() -> list[list[str]]:
    return [words for words in shell_lines() if words[0] == "inspector" and words[1] in COMMANDS]


def app_commands() -> list[list[str]]:
    return [words for words in shell_lines() if words[0] == "inspector" and words[1] not in COMMANDS]


def fresh_clone(tmp_path: Path) -> Path:
    """A folder laid out like a fresh clone's root, holding what the README's commands read."""
    clone = tmp_path / "clone"
    shutil.copytree(SESSIONS, clone / "inspector" / "samples")
    return clone


def test_the_readme_is_a_front_door_under_8_kb():
    assert README.stat().st_size < 8 * 1024


def test_every_line_of_the_readme_s_shell_blocks_is_one_this_test_checks():
    known = {"inspector", "pip", "pytest", "python3", "."}  # `.` is the shell's source: the venv's activate
    assert {words[0] for words in shell_lines()} <= known
    assert cli_commands() and app_commands()


def test_the_install_and_test_commands_name_what_exists():
    extras = set(PYPROJECT["project"]["optional-dependencies"])
    markers = {line.split(":")[0] for line in PYPROJECT["tool"]["pytest"]["ini_options"]["markers"]}
    installs = [words for words in shell_lines() if words[:2] == ["pip", "install"]]
    assert installs == [["pip", "install", "-e", ".[test]"]]  # no Spark in the first install
    for words in installs:
        named = re.fullmatch(r"\.\[([a-z,]+)\]", words[-1])
        assert named and set(named[1].split(",")) <= extras, words
    for words in shell_lines():
        if words[0] == "pytest" and "-m" in words:
            assert set(re.findall(r"[a-z]+", words[words.index("-m") + 1])) - {"not", "and", "or"} <= markers


def _exit_code(clone: Path, words: list[str]) -> int:
    """The code a README command exits with: `scan` 1 (every sample has findings), `fix` 1 when it
    leaves findings in what it writes, the others 0 once done."""
    if words[1] == "scan":
        return 1
    if words[1] == "fix":
        accepted = words[words.index("--accept") + 1]
        return fix_exit_code(clone / words[2], None if accepted == "all" else accepted.split(","))
    return 0


def test_every_cli_command_of_the_readme_runs_as_pasted_from_a_fresh_clone(tmp_path: Path):
    clone = fresh_clone(tmp_path)
    before = sorted(path.name for path in clone.iterdir())
    for words in cli_commands():
        finished = subprocess.run(
            [str(SCRIPT), *words[1:]], cwd=clone, capture_output=True, text=True, timeout=120, check=False
        )
        expected = _exit_code(clone, words)
        assert finished.returncode == expected, (shlex.join(words), finished.stderr)
        assert "Traceback" not in finished.stderr
        if words[1] != "fix":  # fix says what it wrote on stdout; the others report there
            assert finished.stdout or words[1] == "report", shlex.join(words)
    written = {path.name for path in clone.iterdir()} - set(before)
    outputs = {
        words[words.index(option) + 1]
        for words in cli_commands()
        for option in ("-o", "--html", "--markdown")
        if option in words
    }
    assert outputs <= written  # every command that writes wrote a new file, in the clone


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[InspectorApp]:
    """The apps the README's lines open (their `run` is kept from blocking: the test drives them)."""
    apps: list[InspectorApp] = []
    monkeypatch.setattr(InspectorApp, "run", lambda self, *args, **kwargs: apps.append(self))
    return apps


def test_the_readme_s_lines_that_open_the_app_open_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, opened):
    clone = fresh_clone(tmp_path)
    monkeypatch.chdir(clone)
    for words in app_commands():
        assert main(words[1:]) == 0, shlex.join(words)
    assert len(opened) == len(app_commands())
    for words, app in zip(app_commands(), opened):
        given = [Path(word) for word in words[1:] if not word.startswith("-")]
        asyncio.run(_check_first_screen(app, clone / given[0] if given else None))


async def _check_first_screen(app: InspectorApp, path: Path | None) -> None:
    """A directory or the samples open on the list of their sessions; a file on its first flagged
    turn, from which `n` goes to the next one (the README's walk through the app)."""
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        screen = pilot.app.screen
        if path is None or path.is_dir():
            folder = path or SESSIONS
            assert isinstance(screen, PickerScreen)
            table = screen.query_one(DataTable)
            listed = {str(table.get_row_at(index)[0]) for index in range(table.row_count)}
            assert listed == {file.name for file in folder.iterdir() if file.is_file()}
            return
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        flagged = sorted({finding.turn for result in scan_file(path) for finding in result.findings})
        assert isinstance(pilot.app.screen, ReviewScreen) and len(flagged) >= 2
        assert pilot.app.screen.query_one(TurnList).position == flagged[0]
        await pilot.press("n")
        await pilot.pause()
        assert pilot.app.screen.query_one(TurnList).position == flagged[1]
