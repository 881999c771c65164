"""The key that opens the search of every session: ctrl+f on a list, in its footer, its help
and the keys page; the app starts without loading the search (the index, the screen) until
the key is pressed."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets._footer import FooterKey

from inspector.tui.app import InspectorApp
from inspector.tui.commands import help_rows
from tests.helpers.pilot import play
from tests.helpers.samples import DOCS, SESSIONS

pytestmark = pytest.mark.slow  # drives the app with Pilot

LIST_KEYS = DOCS / "keys.md"


def test_ctrl_f_is_in_the_list_s_footer_help_and_keys_page(tmp_path: Path):
    shutil.copy(SESSIONS / "memory-agent.openai.json", tmp_path / "m.openai.json")
    shutil.copy(SESSIONS / "finetune.openai.jsonl", tmp_path / "f.openai.jsonl")

    async def scenario(pilot: Pilot) -> None:
        picker = pilot.app.screen
        assert "search_everywhere" in [key.action for key in picker.query(FooterKey)]
        rows = dict(help_rows(picker))
        assert rows["^f"].startswith("Search the words of every session")

    play(InspectorApp(tmp_path), scenario, settled=True)
    text = LIST_KEYS.read_text(encoding="utf-8")
    table = text[text.index("| key in a list | does |") :]
    assert "\n| ctrl+f |" in table[: table.index("\n\n")]


def test_the_app_starts_without_the_search_and_loads_it_on_ctrl_f(tmp_path: Path):
    # (The picker's worker opens the index, its memory of the files read: the search's screen and
    # queries are what ctrl+f loads.)
    shutil.copy(SESSIONS / "memory-agent.openai.json", tmp_path / "m.openai.json")
    shutil.copy(SESSIONS / "finetune.openai.jsonl", tmp_path / "f.openai.jsonl")
    code = (
        "import asyncio, sys\n"
        "from pathlib import Path\n"
        "from inspector.tui.app import InspectorApp\n"
        "def search_modules():\n"
        "    return sorted(m for m in sys.modules if m.startswith(('inspector.search.queries', 'inspector.tui.search')))\n"
        "async def run():\n"
        "    app = InspectorApp(Path(sys.argv[1]))\n"
        "    async with app.run_test() as pilot:\n"
        "        await app.workers.wait_for_complete()\n"
        "        print(search_modules())\n"
        "        await pilot.press('ctrl+f')\n"
        "        await pilot.pause()\n"
        "        print(type(app.screen).__name__, 'inspector.search.queries' in sys.modules)\n"
        "        await app.workers.wait_for_complete()\n"
        "asyncio.run(run())\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["[]", "SearchScreen True"]
