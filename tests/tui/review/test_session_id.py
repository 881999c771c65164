"""The review screen's top bar names the session it shows by its id, as plain text: a
database's conversation and a session file's session that has one, so a person knows which
chat they are in."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from inspector.tui.app import InspectorApp
from tests.helpers.app import reviewed
from tests.helpers.chat_log import CHAT_LOG, JOURNAL, LEEDS, build_chat_log
from tests.helpers.pilot import play, rows, until
from tests.helpers.samples import SESSIONS

pytestmark = pytest.mark.slow  # drives the app with Pilot

HOSTILE = "\x1b]0;owned\x07[b]leeds[/b]"  # retitles the terminal if sent; markup if parsed


def bar(pilot: Pilot) -> str:
    return str(pilot.app.screen.query_one("#bar", Static).visual)


def test_a_database_conversation_opened_from_the_picker_shows_its_id_neutralised(tmp_path: Path):
    database = build_chat_log(tmp_path / "app.db", {"journal": JOURNAL, HOSTILE: LEEDS})

    async def scenario(pilot: Pilot) -> None:
        picker = pilot.app.screen
        await until(pilot, lambda: picker.query_one(DataTable).row_count == 2, "the picker to list 2 rows")
        assert [row[1] for row in rows(picker.query_one(DataTable))] == [
            '"\\x1b]0;owned\\x07[b]leeds[/b]"',
            "journal",
        ]  # quoted
        await pilot.press("enter")
        await reviewed(pilot)
        assert bar(pilot).startswith("app.db · table · session 1 of 2 · id \\x1b]0;owned\\x07[b]leeds[/b] · 2 turns")
        assert "\x1b" not in bar(pilot) and "\x07" not in bar(pilot)

    play(InspectorApp(database, named=CHAT_LOG), scenario)


def test_a_session_files_session_with_an_id_shows_it_and_one_without_does_not(tmp_path: Path):
    shutil.copy(SESSIONS / "coding-agent.dump.json", tmp_path / "run.dump.json")
    shutil.copy(SESSIONS / "memory-agent.openai.json", tmp_path / "memory.json")

    async def dump(pilot: Pilot) -> None:
        await reviewed(pilot)
        assert " · id ui_run_764686752e2f · " in bar(pilot)

    async def no_id(pilot: Pilot) -> None:
        await reviewed(pilot)
        assert bar(pilot).startswith("memory.json · openai · 35 turns")

    play(InspectorApp(tmp_path / "run.dump.json"), dump)
    play(InspectorApp(tmp_path / "memory.json"), no_id)


def test_the_second_session_of_a_jsonl_file_shows_its_place_and_id(tmp_path: Path):
    path = Path(shutil.copy(SESSIONS / "finetune.openai.jsonl", tmp_path / "finetune.jsonl"))

    async def scenario(pilot: Pilot) -> None:
        await reviewed(pilot)  # the first session with findings: the second line
        assert "finetune.jsonl · openai · session 2 of 3 · id line 2 · " in bar(pilot)

    play(InspectorApp(path), scenario)


def test_a_long_id_on_several_lines_is_one_line_cut_short(tmp_path: Path):
    document = json.loads((SESSIONS / "coding-agent.dump.json").read_text(encoding="utf-8"))
    long_id = "run\n" + "x" * 60
    document["session_id"] = long_id
    for entry in document["entries"]:
        entry["session_id"] = long_id
    path = tmp_path / "long.dump.json"
    path.write_text(json.dumps(document), encoding="utf-8")

    async def scenario(pilot: Pilot) -> None:
        await reviewed(pilot)
        assert f" · id run {'x' * 35}… · " in bar(pilot)
        assert "\n" not in bar(pilot)

    play(InspectorApp(path), scenario)


def test_on_80_columns_a_conversation_with_a_uuid_keeps_its_counts_in_view_in_two_lines(tmp_path: Path):
    uuid = "3f2b8c1e-9d4a-4e6f-b2c7-0a1d5e8f9b3c"
    database = build_chat_log(tmp_path / "assistant-history-export-2026-11.db", {"0-journal": JOURNAL, uuid: LEEDS})

    async def scenario(pilot: Pilot) -> None:
        await reviewed(pilot)
        assert f"session 2 of 2 · id {uuid[:12]}… · 2 turns" in bar(pilot) and bar(pilot).endswith("pending 1")
        assert len(bar(pilot)) > 79  # two lines of the bar's 79 columns: the id is cut short below 100
        assert pilot.app.screen.query_one("#bar").size.height == 2  # all of it shown, its last line not cut off

    play(InspectorApp(database, session=uuid, named=CHAT_LOG), scenario, size=(80, 24))
