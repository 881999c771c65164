"""`inspector` with no path, on a temporary home folder: the picker of the person's own sessions
(tool, project, date, then turns and findings as each file is scanned; `llm`'s history opens its
conversations), the bundled samples with a notice when none is found, `--samples`, and thousands
of rows shown a page at a time."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from inspector.cli.main import main
from inspector.sources.discovery import FoundSession
from inspector.tui.picker.found import Conversations, FoundPicker
from inspector.tui.picker.rows import cell, found_row, shown_project
from inspector.tui.picker.screen import PickerScreen
from inspector.tui.picker.table import FIRST_ROWS, MORE_ROWS
from inspector.tui.review.screen import ReviewScreen
from tests.helpers.home_sessions import LINUX_PLACES_SHOWN, put, sessions_of_every_tool
from tests.helpers.pilot import play, rows, until
from tests.helpers.samples import SESSIONS

pytestmark = pytest.mark.slow  # drives the app with Pilot


def date(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(seconds))


def test_no_path_lists_the_person_s_sessions_newest_first_and_opens_each(empty_home: Path, opened):
    real = sessions_of_every_tool(empty_home)
    ours = put(
        SESSIONS / "finetune.openai.jsonl", empty_home / ".claude" / "projects" / "-p" / "a.jsonl", 1_700_000_300
    )
    broken = empty_home / ".gemini" / "tmp" / "p" / "chats" / "session-1.json"
    broken.parent.mkdir(parents=True)
    broken.write_text("[1, 2", encoding="utf-8")
    os.utime(broken, (1_700_000_400, 1_700_000_400))
    assert main([]) == 0

    async def scenario(pilot: Pilot) -> None:
        picker = pilot.app.screen
        assert isinstance(picker, FoundPicker) and picker.scanned.is_set()
        assert (
            str(picker.query_one("#title", Static).visual)
            == "Your sessions, newest first (2 Gemini CLI, 2 Claude Code, 1 llm, 1 Codex) · Enter opens one"
        )
        table = picker.query_one(DataTable)
        listed = rows(table)
        assert [row[:3] for row in listed] == [
            ["Gemini CLI", "p", date(1_700_000_400)],
            ["Claude Code", "-p", date(1_700_000_300)],
            ["Gemini CLI", "/tmp/gm-work", date(1_700_000_240)],
            ["llm", "", date(1_700_000_180)],
            ["Codex", "/tmp/cx-work", date(1_700_000_120)],
            ["Claude Code", "/tmp/cc-work", date(1_700_000_060)],
        ]
        assert listed[0][3:] == ["", "line 1 column 6: invalid JSON (Expectin…", ""]
        assert listed[1][3:] == ["13", "1 result-prefix", "pending"]
        assert listed[3][3:] == ["18", "4 conversations, Enter lists them", ""]
        assert all(row[4] != "scanning…" for row in listed)  # the real tools' files: read, or why not

        await pilot.press("enter")  # the unreadable file: said in full, nothing opened
        await pilot.pause()
        assert pilot.app.screen is picker
        assert [(note.title, note.message) for note in pilot.app._notifications][-1] == (
            "session-1.json could not be read",
            f"{broken}: line 1 column 6: invalid JSON (Expecting ',' delimiter)",
        )

        await pilot.press("down", "enter")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        review = pilot.app.screen
        assert isinstance(review, ReviewScreen) and review.path == ours and review.session_index == 1
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is picker

        await pilot.press("down", "down", "enter")  # llm's history: its conversations, then back
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        conversations = pilot.app.screen
        assert isinstance(conversations, Conversations)
        assert [row[1:3] for row in rows(conversations.query_one(DataTable))] == [
            ["1", "1 result-prefix"],
            ["2", "1 malformed-arguments"],
            ["3", "1 tool-markup"],
            ["4", "none"],
        ]
        await pilot.press("enter")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(pilot.app.screen, ReviewScreen) and pilot.app.screen.path == real["llm"]
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is conversations
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is picker

    [app] = opened
    play(app, scenario, size=(140, 40), settled=True, notifications=True)


def test_with_none_found_the_samples_open_and_the_screen_says_so(opened):
    assert main([]) == 0
    assert main(["--samples"]) == 0
    notice = f"These are the bundled samples: no sessions of your own were found ({LINUX_PLACES_SHOWN})"

    async def none_found(pilot: Pilot) -> None:
        picker = pilot.app.screen
        assert type(picker) is PickerScreen
        assert str(picker.query_one("#title", Static).visual) == f"Sessions in {SESSIONS} · Enter opens one\n{notice}"
        assert [note.message for note in pilot.app._notifications] == [notice]
        assert {row[0] for row in rows(picker.query_one(DataTable))} == {
            path.name for path in SESSIONS.iterdir() if path.is_file()
        }

    async def on_purpose(pilot: Pilot) -> None:
        assert str(pilot.app.screen.query_one("#title", Static).visual) == f"Sessions in {SESSIONS} · Enter opens one"
        assert not pilot.app._notifications

    play(opened[0], none_found, size=(140, 40), settled=True, notifications=True)
    play(opened[1], on_purpose, size=(140, 40), settled=True, notifications=True)


def test_options_about_one_file_need_its_path(capsys):
    assert main(["--samples", str(SESSIONS)]) == 2
    assert main(["--session", "1"]) == 2
    assert main(["--table", "t", "--map", "role=r,content=c"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "inspector: error: give a path or --samples, not both",
        "inspector: error: --session can only be used with the path of a file or database",
        "inspector: error: --table and --map can only be used with the path of a file or database",
    ]


def test_thousands_of_sessions_list_a_page_at_a_time_before_they_are_scanned(empty_home: Path, opened):
    project = empty_home / ".claude" / "projects" / "-p"
    project.mkdir(parents=True)
    for number in range(1500):
        shutil.copyfile(SESSIONS / "clean.openai.json", project / f"{number:04}.jsonl")
    assert main([]) == 0

    async def scenario(pilot: Pilot) -> None:
        picker = pilot.app.screen
        table = picker.query_one(DataTable)
        assert isinstance(picker, FoundPicker) and table.row_count == FIRST_ROWS
        assert not picker.scanned.is_set()  # listed before the files are scanned
        table.move_cursor(row=FIRST_ROWS - 10)
        await pilot.pause()
        assert table.row_count == FIRST_ROWS + MORE_ROWS
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert list(map(str, table.get_row_at(FIRST_ROWS + MORE_ROWS - 1)[3:])) == [
            "12",
            "none",
            "",
        ]  # scanned, shown or not
        table.move_cursor(row=table.row_count - 1)
        await pilot.pause()
        assert list(map(str, table.get_row_at(table.row_count - 1)[3:])) == ["12", "none", ""]

    [app] = opened
    play(app, scenario, size=(140, 40), notifications=True)  # the first screen, as soon as it is shown


def test_a_row_shows_the_home_folder_as_a_tilde_and_a_long_project_by_its_end(tmp_path: Path):
    found = FoundSession("Codex", tmp_path / "r.jsonl", str(tmp_path / "work" / "proj"), 1_700_000_000, 10)
    row = found_row(found, tmp_path)
    assert [str(cell(row, column)) for column in ("tool", "project", "date")] == [
        "Codex",
        "~/work/proj",
        date(1_700_000_000),
    ]
    assert [str(cell(row, column)) for column in ("turns", "findings", "status")] == ["", "scanning…", ""]
    assert shown_project("/srv/" + "x" * 40 + "/end", tmp_path) == "…" + "x" * 19 + "/end"
    assert shown_project("-home-me-proj", tmp_path) == "-home-me-proj"


def test_your_sessions_at_60_columns_sort_and_filter_and_esc_clears_before_going_back(empty_home: Path, opened):
    sessions_of_every_tool(empty_home)
    assert main([]) == 0

    async def scenario(pilot: Pilot) -> None:
        picker = pilot.app.screen
        table = picker.query_one(DataTable)
        # tool, turns and status dropped: the findings read whole
        assert [key.value for key in table.columns] == ["project", "date", "findings"]
        assert sum(column.get_render_width(table) for column in table.columns.values()) <= 58
        await until(pilot, picker.scanned.is_set, "the scan")
        shown = [table.render_line(y).text.rstrip() for y in range(1, 5)]  # under the header, newest first
        assert [line.split("  ")[-1] for line in shown if "-work" in line] == [
            "1 result-prefix +2",
            "2 malformed-arguments +2",
            "2 malformed-arguments +3",
        ]
        await pilot.press("s")  # by findings: the history (not counted) last
        assert [row[0] for row in rows(table)] == ["/tmp/cc-work", "/tmp/cx-work", "/tmp/gm-work", ""]  # 6, 4, 3
        await pilot.press("G", "enter")  # llm's history: its conversations
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        conversations = pilot.app.screen
        assert isinstance(conversations, Conversations)
        await pilot.press("f", "f")  # the first kind by name
        # the file (one for every row) dropped first, then the findings read whole
        assert [row[:2] for row in rows(conversations.query_one(DataTable))] == [["2", "1 malformed-arguments"]]
        await pilot.press("escape")  # clears the filter
        assert pilot.app.screen is conversations and conversations.query_one(DataTable).row_count == 4
        await pilot.press("escape")  # then goes back
        await pilot.pause()
        assert pilot.app.screen is picker

    [app] = opened
    play(app, scenario, size=(60, 30), settled=True, notifications=True)
