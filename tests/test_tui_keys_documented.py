"""The README's key table lists every key the review screen's help shows."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from textual.pilot import Pilot

from conftest import SESSIONS
from inspector.tui.help import HelpScreen
from test_tui_review import drive, press

README = Path(__file__).resolve().parent.parent / "README.md"
SPELLED = {"esc": "Esc", "^p": "ctrl+p"}  # as the help shows a key -> as the README writes it


def readme_keys() -> set[str]:
    """The keys named in the first column of the README's table of the app's keys."""
    table = README.read_text(encoding="utf-8").split("| key | does |", 1)[1].split("\n\n", 1)[0]
    cells = [line.split("|")[1] for line in table.splitlines() if line.startswith("| ")]
    return {key for cell in cells for key in re.findall(r"`([^`]+)`", cell) + re.findall(r"ctrl\+\w", cell)}


def test_every_key_in_the_help_is_in_the_readme(tmp_path: Path):
    path = Path(shutil.copy(SESSIONS / "memory-agent.openai.json", tmp_path / "memory.json"))
    shown: list[str] = []

    async def scenario(pilot: Pilot, notes: list[str]) -> None:
        await press(pilot, "question_mark")
        assert isinstance(pilot.app.screen, HelpScreen)
        for keys, _ in pilot.app.screen.bindings:
            shown.extend(keys.split("/") if keys != "/" else [keys])  # "j/k": two keys; "/": one

    drive(path, scenario)
    assert {"c", "r", "Y"} <= set(shown)
    assert not {SPELLED.get(key, key) for key in shown} - readme_keys()
