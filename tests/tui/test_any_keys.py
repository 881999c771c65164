"""Property test (hypothesis): the app, opened on a copy of a sample, takes any sequence of the keys
a person may press (every key of the review screen but quitting and the external editor, the
list's, the dialogs' answers, moves, digits, Tab, Space, Enter, Escape) without an error escaping,
and nothing it had is lost: the session's bytes are still in its folder, in the file itself or in
the copy saved before an export over it (a session file, a folder of them, an SQLite history).

Each sample tries `INSPECTOR_APP_KEYS` sequences (2 by default, 60 keys at most each); a longer run,
and a replay by seed, as in `test_fuzz.py`:

    INSPECTOR_APP_KEYS=50 INSPECTOR_FUZZ_SEED=7 python -m pytest tests/tui/test_any_keys.py
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from textual.pilot import Pilot

from inspector.tui.app import InspectorApp
from inspector.tui.review.keys import KEYS
from tests.helpers.pilot import play
from tests.helpers.properties import examples, replay
from tests.helpers.samples import SESSIONS, TOOL_SAMPLES

SEQUENCES = examples("INSPECTOR_APP_KEYS", 2)
LEFT_OUT = {"q", "ctrl+g"}  # quitting ends the run; the external editor would start a program
REVIEW_KEYS = sorted({key for binding in KEYS for key in binding.key.split(",")} - LEFT_OUT)  # type: ignore[union-attr]
OTHER_KEYS = ["up", "down", "pageup", "pagedown", "home", "end", "tab", "space", "enter", "escape", "y", "n", "1", "2"]
PRESSES = st.lists(st.sampled_from(REVIEW_KEYS + OTHER_KEYS + ["e", "s", "g", "G", "S", "r"]), min_size=1, max_size=60)
OPENED = [
    SESSIONS / "memory-agent.openai.json",  # fixes of every kind: approve, edit, export
    TOOL_SAMPLES / "claude-code.jsonl",  # a coding agent's session, written back line by line
    TOOL_SAMPLES / "claude-code-subagent",  # a folder: the list, then a session opened from it
    SESSIONS / "rails-chat.rubyllm.db",  # an SQLite history: its conversations listed, one opened, exported
    TOOL_SAMPLES / "opencode.db",  # a coding agent's database, written back part by part
]


@pytest.mark.parametrize("sample", OPENED, ids=lambda path: path.name)
@SEQUENCES
@replay
@given(keys=PRESSES)
def test_any_keys_leave_the_app_running_and_the_session_in_its_folder(sample: Path, keys: list[str]):
    with tempfile.TemporaryDirectory() as folder:
        opened = Path(folder) / sample.name
        if sample.is_dir():
            shutil.copytree(sample, opened)
        else:
            shutil.copy(sample, opened)
        before = _contents(opened)

        async def scenario(pilot: Pilot) -> None:
            for key in keys:
                await pilot.press(key)
            await pilot.pause()
            assert pilot.app.is_running

        play(InspectorApp(opened), scenario, settled=True)
        kept = {content for path in Path(folder).rglob("*") if path.is_file() for content in [path.read_bytes()]}
        assert set(before.values()) <= kept  # every file's bytes: in the file, or in its backup


def _contents(opened: Path) -> dict[Path, bytes]:
    """The bytes of the file `opened`, or of every file in the folder `opened`, by path."""
    files = [path for path in opened.rglob("*") if path.is_file()] if opened.is_dir() else [opened]
    return {path: path.read_bytes() for path in files}
