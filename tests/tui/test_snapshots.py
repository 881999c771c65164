"""SVG snapshots of the picker and of the review screen on a flagged turn (and, in a light theme,
on a whole turn as exported), at 120x40.

Regenerate with `pytest tests/tui/test_snapshots.py --snapshot-update` and look at the SVGs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable

from inspector.tui.app import InspectorApp
from tests.helpers.pilot import settle, until
from tests.helpers.samples import SESSIONS, copied

SAMPLES = ("memory-agent.openai.json", "support-agent.anthropic.json", "finetune.openai.jsonl")


@pytest.fixture
def samples(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Copies of three samples in ./samples, the working directory being tmp_path (so the path
    shown on screen is the same on every run)."""
    copied(SAMPLES, SESSIONS, tmp_path / "samples")
    monkeypatch.chdir(tmp_path)
    return Path("samples")


async def picker_loaded(pilot: Pilot) -> None:
    """Every row listed and drawn with its columns sized: the table sizes them when idle, which a
    busy machine can delay past a pause, so wait until the longest file name is drawn whole."""
    await settle(pilot)
    table = pilot.app.screen.query_one(DataTable)
    longest = max((str(name) for name in table.get_column_at(0)), key=len)
    await until(pilot, lambda: longest in pilot.app.export_screenshot(), "the longest file name drawn whole")


def test_picker(snap_compare, samples: Path):
    assert snap_compare(InspectorApp(samples), terminal_size=(120, 40), run_before=picker_loaded)


def test_review_screen_on_a_flagged_turn(snap_compare, samples: Path):
    assert snap_compare(InspectorApp(samples / "memory-agent.openai.json"), terminal_size=(120, 40), run_before=settle)


def test_review_screen_on_a_turn_with_two_findings_in_flagged_only_view(snap_compare, samples: Path):
    async def second_of_two(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("f", "n", "n", "right_square_bracket")
        await pilot.pause()

    assert snap_compare(
        InspectorApp(samples / "memory-agent.openai.json"), terminal_size=(120, 40), run_before=second_of_two
    )


def test_review_screen_in_a_light_theme_showing_a_whole_turn_as_exported(snap_compare, samples: Path):
    async def light_whole_turn(pilot: Pilot) -> None:
        pilot.app.theme = "textual-light"
        await settle(pilot)
        await pilot.press("n", "n", "a", "w")  # turn 14: the first of its two fixes approved, the turn as exported
        await pilot.pause()

    assert snap_compare(
        InspectorApp(samples / "memory-agent.openai.json"), terminal_size=(120, 40), run_before=light_whole_turn
    )
