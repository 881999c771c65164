"""The app on a RubyLLM history built in the test: the picker lists its conversations before
scanning them, a conversation opens on its own, and its export writes a database that keeps the
other conversations as they were."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable

from inspector.cli.main import main
from inspector.scan.scanner import iter_scan
from inspector.sources import open_source
from inspector.tui.app import InspectorApp
from inspector.tui.dialogs.confirm import Confirm
from inspector.tui.dialogs.export import ExportDialog
from inspector.tui.picker.screen import PickerScreen
from inspector.tui.picker.table import FIRST_ROWS, MORE_ROWS
from inspector.tui.review.screen import ReviewScreen
from tests.helpers.pilot import play, rows, until
from tests.helpers.rubyllm import SEED_000_CHATS, build_rubyllm

pytestmark = pytest.mark.slow  # drives the app with Pilot

MANY = SEED_000_CHATS + SEED_000_CHATS[2:] * 800  # 1,604 conversations: scanning takes far longer than listing


def contents(path: Path) -> list[tuple]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT id, chat_id, role, content, tool_call_id FROM messages ORDER BY id").fetchall()


def test_the_picker_lists_conversations_before_scanning_them_then_shows_their_findings(tmp_path: Path):
    database = build_rubyllm(tmp_path / "app.db", MANY)

    async def scenario(pilot: Pilot) -> None:
        picker = pilot.app.screen
        assert isinstance(picker, PickerScreen)
        table = picker.query_one(DataTable)
        await until(pilot, lambda: table.row_count, "the picker's first rows")
        first = rows(table)
        assert not picker.scanned.is_set()
        assert first[0] == ["app.db", "1", "scanning…", "10", "rubyllm", ""]  # id, messages, schema; findings to come
        await pilot.press("down", "enter")  # usable before the scan ends: conversation 2 opens
        review = pilot.app.screen
        assert isinstance(review, ReviewScreen)
        await until(pilot, lambda: review.review is not None, "the review screen to read its review")
        assert review.session.session_id == "2" and len(review.review.results) == 1
        await pilot.press("escape")
        await until(pilot, picker.scanned.is_set, "the picker to scan every conversation")
        await pilot.pause()
        assert table.row_count == FIRST_ROWS  # the other rows are added as the cursor nears the end
        for _ in range(len(MANY) // MORE_ROWS):
            await pilot.press("ctrl+end")
        listed = rows(table)
        assert len(listed) == len(MANY)
        assert [row[1:] for row in listed[:4]] == [
            ["1", "1 result-prefix", "10", "rubyllm", "pending"],
            ["2", "1 malformed-arguments", "4", "rubyllm", "pending"],
            ["3", "1 tool-markup", "2", "rubyllm", "pending"],
            ["4", "none", "2", "rubyllm", ""],
        ]
        assert listed[-2][1:3] == [str(len(MANY) - 1), "1 tool-markup"] and listed[-1][2] == "none"
        widths = {column.label.plain: column.get_render_width(table) for column in table.columns.values()}
        assert widths["Findings by kind"] > len("1 malformed-arguments")  # columns grew past "scanning…"
        assert widths["Format"] > len("rubyllm")

    play(InspectorApp(database), scenario)


def test_one_conversation_reviewed_and_exported_keeps_the_other_conversations(tmp_path: Path):
    database = build_rubyllm(tmp_path / "app.db")
    before = contents(database)

    async def scenario(pilot: Pilot) -> None:
        await until(pilot, lambda: pilot.app.screen.query_one(DataTable).row_count == 4, "the picker to list 4 rows")
        await pilot.press("down", "enter")
        review = pilot.app.screen
        await until(pilot, lambda: review.review is not None, "the review screen to read its review")
        assert review.review.findings(0)[0].kind == "malformed-arguments"
        await pilot.press("a", "x")
        await until(pilot, lambda: isinstance(pilot.app.screen, ExportDialog), "the export dialog")
        await pilot.press("enter")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    play(InspectorApp(database), scenario)
    exported = tmp_path / "app.fixed.db"
    assert contents(database) == before  # the input is untouched
    assert open_source(exported).listing() == open_source(database).listing()
    kept = [row for row in contents(exported) if row[1] != 2]
    assert kept == [row for row in before if row[1] != 2]  # every other conversation as it was
    findings = {
        result.session.session_id: [f.kind for f in result.findings] for result in iter_scan(open_source(exported))
    }
    assert findings == {"1": ["result-prefix"], "2": [], "3": ["tool-markup"], "4": []}
    with sqlite3.connect(exported) as conn:
        assert conn.execute("SELECT kind FROM inspector_fixes").fetchall() == [("malformed-arguments",)]
        assert conn.execute("SELECT arguments FROM tool_calls WHERE tool_call_id = 'call_mem_1'").fetchone() == (
            '{"memory_type": "fact", "content": "Sister\'s birthday is 4 March."}',
        )


def test_decisions_on_two_conversations_are_both_exported_and_session_opens_one(tmp_path: Path):
    database = build_rubyllm(tmp_path / "app.db")

    async def decide(pilot: Pilot) -> None:
        review = pilot.app.screen
        assert isinstance(review, ReviewScreen)
        await until(pilot, lambda: review.review is not None, "the review screen to read its review")
        await pilot.press("a")

    async def first(pilot: Pilot) -> None:  # conversation 1 alone, then quit: its decision kept
        await decide(pilot)
        assert "session 1 of 4" in str(pilot.app.screen.query_one("#bar").visual)

    async def second(pilot: Pilot) -> None:
        await decide(pilot)
        await pilot.press("x")
        await until(pilot, lambda: isinstance(pilot.app.screen, ExportDialog), "the export dialog")
        await pilot.press("enter")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    play(InspectorApp(database, session="1"), first)
    play(InspectorApp(database, session="3"), second)
    findings = {
        result.session.session_id: [f.kind for f in result.findings]
        for result in iter_scan(open_source(tmp_path / "app.fixed.db"))
    }
    assert findings == {"1": [], "2": ["malformed-arguments"], "3": [], "4": []}


def test_an_unknown_session_id_says_so_in_the_app(tmp_path: Path):
    database = build_rubyllm(tmp_path / "app.db")

    async def scenario(pilot: Pilot) -> None:
        review = pilot.app.screen
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert "no conversation '9'" in str(review.query_one("#bar").visual)

    play(InspectorApp(database, session="9"), scenario)


def test_session_needs_a_file_not_a_directory(tmp_path: Path, capsys):
    assert main([str(tmp_path), "--session", "1"]) == 2
    assert capsys.readouterr().err == (
        f"inspector: error: {tmp_path}: --session ID opens a session of one file or database, not of a directory\n"
    )


def test_quitting_after_two_conversations_asks_once_about_their_database(tmp_path: Path):
    database = build_rubyllm(tmp_path / "app.db")

    async def scenario(pilot: Pilot) -> None:
        await until(pilot, lambda: pilot.app.screen.query_one(DataTable).row_count == 4, "the picker to list 4 rows")
        for keys in (("down", "enter"), ("up", "enter")):
            await pilot.press(*keys)
            review = pilot.app.screen
            await until(pilot, lambda: review.review is not None, "the review screen to read its review")
            await pilot.press("a", "escape")
        await pilot.press("q")
        await until(pilot, lambda: isinstance(pilot.app.screen, Confirm), "the confirmation dialog")
        assert "Decisions on app.db are not exported yet" in str(pilot.app.screen.query_one("#question").visual)

    play(InspectorApp(database), scenario)


def test_while_an_export_waits_for_a_locked_database_decisions_and_leaving_wait_for_it(tmp_path: Path):
    database = build_rubyllm(tmp_path / "app.db")
    other = sqlite3.connect(database, isolation_level=None)

    async def scenario(pilot: Pilot) -> None:
        review = pilot.app.screen
        await until(pilot, lambda: review.review is not None, "the review screen to read its review")
        await pilot.press("a")
        other.execute("BEGIN EXCLUSIVE")  # another program writing: the export's copy waits for it
        try:
            await pilot.press("x")
            await until(pilot, lambda: isinstance(pilot.app.screen, ExportDialog), "the export dialog")
            await pilot.press("enter", "u", "s", "escape")
            await pilot.pause()
            assert pilot.app.screen is review and review.review.status(0, 0) == "approved"
        finally:  # else the export's copy would wait for ever
            other.execute("ROLLBACK")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert not review.review.unexported
        notes = [note.message for note in pilot.app._notifications]
        assert notes[:3] == ["Exporting: wait for it to finish"] * 3 and notes[3].startswith("Wrote ")

    play(InspectorApp(database, session="1"), scenario)
    other.close()
    exported = iter_scan(open_source(tmp_path / "app.fixed.db"))
    findings = {result.session.session_id: [f.kind for f in result.findings] for result in exported}
    assert findings == {"1": [], "2": ["malformed-arguments"], "3": ["tool-markup"], "4": []}
