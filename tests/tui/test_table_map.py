"""The app on a chat table of no known schema, named with `--table T --map ...`: the picker lists
its conversations, one opens, is reviewed and exported as for a recognised schema; bad options
fail as `inspector scan` fails, before the app starts.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable

from inspector.cli.main import main
from inspector.scan.scanner import iter_scan
from inspector.sources import open_source
from inspector.sources.schemas.table import parse_map
from inspector.tui.app import InspectorApp
from inspector.tui.conversations import ReadOptions
from inspector.tui.picker.screen import PickerScreen
from inspector.tui.review.screen import ReviewScreen
from tests.helpers.app import export_with_defaults, play_noting
from tests.helpers.chat_log import CHAT_LOG, JOURNAL, LEEDS, MAP, TEMPO, bodies, build_chat_log
from tests.helpers.pilot import play, rows, until

pytestmark = pytest.mark.slow  # drives the app with Pilot


def test_the_picker_lists_the_named_tables_conversations_and_one_is_reviewed_and_exported(tmp_path: Path):
    database = build_chat_log(tmp_path / "app.db", {"journal": JOURNAL, "leeds": LEEDS, "tempo": TEMPO})
    before = bodies(database)

    async def scenario(pilot: Pilot) -> None:
        picker = pilot.app.screen
        assert isinstance(picker, PickerScreen)
        assert "Conversations in app.db (table chat_log)" in str(picker.query_one("#title").visual)
        await until(pilot, picker.scanned.is_set, "the picker to scan every conversation")
        await pilot.pause()
        assert rows(picker.query_one(DataTable)) == [
            ["app.db", "journal", "1 result-prefix", "2", "table", "pending"],
            ["app.db", "leeds", "1 result-prefix", "2", "table", "pending"],
            ["app.db", "tempo", "none", "2", "table", ""],
        ]
        await pilot.press("down", "enter")
        review = pilot.app.screen
        assert isinstance(review, ReviewScreen)
        await until(pilot, lambda: review.review is not None, "the review screen to read its review")
        assert review.session.session_id == "leeds"
        assert "session 2 of 3" in str(review.query_one("#bar").visual)
        await pilot.press("a")
        await export_with_defaults(pilot)

    play(InspectorApp(database, named=CHAT_LOG), scenario)
    exported = tmp_path / "app.fixed.db"
    assert bodies(database) == before  # the input is untouched
    fixed = bodies(exported)
    assert fixed[3] == (4, "leeds", "ai", "Done, it is on your list.")
    assert [row for row in fixed if row[0] != 4] == [row for row in before if row[0] != 4]
    findings = {
        result.session.session_id: [f.kind for f in result.findings]
        for result in iter_scan(open_source(exported, table=CHAT_LOG.table, mapping=CHAT_LOG.mapping))
    }
    assert findings == {"journal": ["result-prefix"], "leeds": [], "tempo": []}
    with sqlite3.connect(exported) as conn:
        assert conn.execute('SELECT "table", row_id, kind FROM inspector_fixes').fetchall() == [
            ("chat_log", "4", "result-prefix")
        ]
    conn.close()


def test_session_opens_a_conversation_of_the_named_table_straight_away(tmp_path: Path):
    database = build_chat_log(tmp_path / "app.db", {"journal": JOURNAL, "tempo": TEMPO})

    async def scenario(pilot: Pilot) -> None:
        review = pilot.app.screen
        assert isinstance(review, ReviewScreen)
        await until(pilot, lambda: review.review is not None, "the review screen to read its review")
        assert review.session.session_id == "journal"
        assert [finding.kind for finding in review.review.findings(0)] == ["result-prefix"]

    play(InspectorApp(database, session="journal", named=CHAT_LOG), scenario)


def test_a_table_without_a_session_column_is_one_conversation(tmp_path: Path):
    database = build_chat_log(tmp_path / "app.db", {"journal": JOURNAL, "tempo": TEMPO})

    async def scenario(pilot: Pilot) -> None:
        picker = pilot.app.screen
        await until(pilot, picker.scanned.is_set, "the picker to scan every conversation")
        await pilot.pause()
        assert rows(picker.query_one(DataTable)) == [["app.db", "all", "1 result-prefix", "4", "table", "pending"]]

    play(InspectorApp(database, named=ReadOptions("chat_log", parse_map("role=speaker,content=body"))), scenario)


@pytest.mark.parametrize(
    "options",
    [
        ["--table", "chat_log"],
        ["--map", MAP],
        ["--table", "chats", "--map", MAP],
        ["--table", "chat_log", "--map", "role=speaker,content=text"],
        ["--table", "chat_log", "--map", "role=speaker,body"],
        ["--table", "chat_log", "--map", "content=body"],
    ],
    ids=["table-alone", "map-alone", "no-such-table", "no-such-column", "not-key-value", "no-role"],
)
def test_bad_table_or_map_fail_as_scan_does_before_the_app_starts(tmp_path: Path, capsys, options):
    database = build_chat_log(tmp_path / "app.db", {"journal": JOURNAL})
    assert main(["scan", str(database), *options]) == 2
    scanned = capsys.readouterr().err
    assert main([str(database), *options]) == 2
    error = capsys.readouterr().err
    assert error == scanned and error.startswith("inspector: error: ") and error.count("\n") == 1


def test_table_and_map_need_a_database(tmp_path: Path, capsys):
    session = tmp_path / "session.json"
    session.write_text('{"messages": []}')
    assert main([str(session), "--table", "chat_log", "--map", MAP]) == 2
    assert capsys.readouterr().err == (
        f"inspector: error: {session}: not an SQLite database (it does not start with SQLite's header)\n"
    )
    assert main([str(tmp_path), "--table", "chat_log", "--map", MAP]) == 2
    assert capsys.readouterr().err == (
        f"inspector: error: {tmp_path}: --table and --map read one database, not a directory\n"
    )


def test_help_names_the_apps_table_options(tmp_path: Path, capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "--table T --map" in " ".join(capsys.readouterr().out.split())
    with pytest.raises(SystemExit):
        main([str(tmp_path / "app.db"), "--help"])
    usage = " ".join(capsys.readouterr().out.split())
    assert "[--table T --map role=COL,content=COL[,id=COL,session=COL,order=COL]]" in usage


def test_a_database_of_no_known_schema_says_in_full_how_to_name_its_table(tmp_path: Path):
    database = build_chat_log(tmp_path / "app.db", {"journal": JOURNAL})

    async def scenario(pilot: Pilot) -> None:
        await until(pilot, pilot.app.screen.scanned.is_set, "the picker to scan every conversation")
        await pilot.pause()

    assert play_noting(InspectorApp(database), scenario) == [
        f"{database}: not a chat history schema this tool knows (tables: chat_log); name the messages "
        "table with --table T --map role=COL,content=COL[,id=COL,session=COL,order=COL]"
    ]
