"""The picker and the review screen at 80x24, on the files Claude Code, Codex and Gemini CLI wrote:
the findings column names whole kinds, the review's bar takes two lines, and the finding's fix
line stays in view. SVG snapshots of both (regenerate with `pytest tests/tui/test_small_terminal.py
--snapshot-update` and look at the SVGs)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from inspector.tui.app import InspectorApp
from tests.helpers.app import loaded
from tests.helpers.pilot import play, press, settle, until
from tests.helpers.samples import TOOL_SAMPLES, copied

pytestmark = pytest.mark.slow  # drives the app with Pilot

SMALL = (80, 24)
FILES = ("claude-code.jsonl", "codex.rollout.jsonl", "gemini-cli.session.jsonl")


@pytest.fixture
def agents(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Copies of the three agents' files in ./agents, the working directory being tmp_path (so the
    path shown on screen is the same on every run)."""
    copied(FILES, TOOL_SAMPLES, tmp_path / "agents")
    monkeypatch.chdir(tmp_path)
    return Path("agents")


async def scanned(pilot: Pilot) -> None:
    await until(pilot, pilot.app.screen.scanned.is_set, "the picker to scan every session")
    await settle(pilot)
    await until(pilot, lambda: "+3" in pilot.app.export_screenshot(), "the findings column drawn")


def test_the_picker_at_80x24_names_whole_kinds(agents: Path):
    async def scenario(pilot: Pilot) -> None:
        await scanned(pilot)
        findings = [str(cell) for cell in pilot.app.screen.query_one(DataTable).get_column("findings")]
        assert findings == ["2 malformed-arguments +3", "2 malformed-arguments +2", "1 result-prefix +2"]

    play(InspectorApp(agents), scenario, size=SMALL, settled=True)


def test_the_review_at_80x24_shows_the_bar_in_two_lines_and_the_fix_line(agents: Path):
    async def scenario(pilot: Pilot) -> None:
        await loaded(pilot)
        screen = pilot.app.screen
        assert screen.query_one("#bar").size.height == 2
        assert str(screen.query_one("#bar", Static).visual).endswith("pending 6")
        for _ in range(2):  # the result-prefix finding, then the tool-markup one with its facts
            lines = str(screen.query_one("#finding", Static).visual).splitlines()
            assert lines[-1].startswith("fix: ")
            assert screen.query_one("#finding-pane").max_scroll_y == 0  # all of it in view
            await press(pilot, "n")

    play(InspectorApp(agents / "claude-code.jsonl"), scenario, size=SMALL)


def test_picker_at_80x24(snap_compare, agents: Path):
    assert snap_compare(InspectorApp(agents), terminal_size=SMALL, run_before=scanned)


def test_review_screen_at_80x24(snap_compare, agents: Path):
    assert snap_compare(InspectorApp(agents / "claude-code.jsonl"), terminal_size=SMALL, run_before=loaded)
