"""The picker of a folder's sessions (`inspector DIR`) takes what it shows of a file from the search
index when the file is as it was: a second start shows every session's row as reading the files
did, reading only the files changed since (and a history database, whose conversations are always
listed and scanned from it)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable

from inspector.cli.main import main
from inspector.tui.conversations import ReadOptions
from inspector.tui.picker.screen import PickerScreen
from tests.helpers.pilot import play, rows, until
from tests.helpers.samples import SESSIONS as SAMPLES
from tests.helpers.samples import copied

KEPT = ("finetune.openai.jsonl", "memory-agent.openai.json", "notes-agent.claude-code.jsonl")
HISTORY = "notes-agent.langchain-sql.db"


def shown(app) -> list[list[str]]:
    """The rows the app's folder picker shows once every file is scanned, in file and session order."""
    seen: list[list[list[str]]] = []

    async def scenario(pilot: Pilot) -> None:
        picker = pilot.app.screen
        assert isinstance(picker, PickerScreen)
        await until(pilot, picker.scanned.is_set, "the scan")
        await pilot.pause()
        seen.append(sorted(rows(picker.query_one(DataTable))))

    play(app, scenario, size=(160, 60))
    return seen[0]


@pytest.mark.slow  # drives the app with Pilot
def test_a_second_start_shows_a_folder_s_unchanged_files_from_the_index_without_reading_them(
    tmp_path: Path, opened: list, monkeypatch: pytest.MonkeyPatch
):
    folder = copied((*KEPT, HISTORY), SAMPLES, tmp_path / "sessions")
    assert main([str(folder)]) == 0
    first = shown(opened[0])
    assert len(first) > len(KEPT) + 1  # the JSON Lines file holds several sessions, the database conversations

    read: list[str] = []
    scan = ReadOptions.scan
    monkeypatch.setattr(
        ReadOptions, "scan", lambda self, source, start=0: read.append(source.format) or scan(self, source, start)
    )
    assert main([str(folder)]) == 0
    second = shown(opened[1])

    assert second == first
    assert set(read) == {"langchain-sql"}  # the database's conversations alone: the files came from the index

    read.clear()
    shutil.copy(SAMPLES / "clean.openai.json", folder / "memory-agent.openai.json")  # another session now
    assert main([str(folder)]) == 0
    third = shown(opened[2])
    assert set(read) == {"openai", "langchain-sql"}
    assert third != first and len(third) == len(first)
