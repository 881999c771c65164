"""Finding a person's OpenHands conversations (`inspector.sources.discovery.openhands`), on a
temporary home folder only: each conversation folder's `base_state.json`, its project from the
workspace, the variables that move the folder, and a scan with no path reading them as `openhands`."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from inspector.cli.main import main
from inspector.sources.discovery import FoundSession, discover
from tests.helpers.samples import TOOL_SAMPLES

SAMPLE = TOOL_SAMPLES / "openhands-conversation"
CONVERSATION = "3f2a9c4e8b1d4e6fa5c72d9e0b1f4a68"


def put_conversation(folder: Path) -> Path:
    """A copy of the sample conversation as `folder`; its state file."""
    shutil.copytree(SAMPLE, folder)
    return folder / "base_state.json"


def test_each_conversation_folder_is_found_by_its_state_with_its_project(empty_home: Path):
    conversations = empty_home / ".openhands" / "conversations"
    state = put_conversation(conversations / CONVERSATION)
    (conversations / "no-events").mkdir()
    (conversations / "no-events" / "base_state.json").write_text("{}")
    os.utime(state, (1_700_000_300, 1_700_000_300))
    assert discover(empty_home, {}) == [
        FoundSession("OpenHands", state, "/tmp/openhands-work", 1_700_000_300, state.stat().st_size)
    ]


def test_the_variables_move_the_folder_and_an_empty_one_is_unset(empty_home: Path, tmp_path: Path):
    put_conversation(empty_home / ".openhands" / "conversations" / "a")
    persisted = put_conversation(tmp_path / "persisted" / "conversations" / "b")
    chosen = put_conversation(tmp_path / "chosen" / "c")
    assert [f.path for f in discover(empty_home, {"OPENHANDS_PERSISTENCE_DIR": str(tmp_path / "persisted")})] == [
        persisted
    ]
    moved = {"OPENHANDS_CONVERSATIONS_DIR": str(tmp_path / "chosen"), "OPENHANDS_PERSISTENCE_DIR": "/nowhere"}
    assert [f.path for f in discover(empty_home, moved)] == [chosen]
    assert [f.path.parent.name for f in discover(empty_home, {"OPENHANDS_CONVERSATIONS_DIR": ""})] == ["a"]


def test_scan_with_no_path_reads_them_as_openhands(empty_home: Path, capsys):
    put_conversation(empty_home / ".openhands" / "conversations" / CONVERSATION)
    assert main(["scan", "--json"]) == 1
    (session,) = json.loads(capsys.readouterr().out)["sessions"]
    assert (session["format"], session["session_id"]) == ("openhands", "3f2a9c4e-8b1d-4e6f-a5c7-2d9e0b1f4a68")
