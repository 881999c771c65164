"""The app on a RubyLLM history kept on a real PostgreSQL server (started by the test suite,
`tests/conftest.py`), opened by its URL as an SQLite history is by its name: the picker lists the
conversations, one opens, a fix approved is written in place through the one write path (the
audit tables keep the before-values, `inspector undo` reverts it), a row changed since the app
read it refuses the export, the review file is named without the password, and a server that
cannot be read is one line before any screen."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import psycopg
from textual.pilot import Pilot
from textual.widgets import Checkbox, DataTable, Input

from inspector.cli.main import main
from inspector.sources import location
from inspector.tui.app import InspectorApp
from inspector.tui.conversations import ReadOptions
from inspector.tui.dialogs.server_export import ServerExportDialog
from inspector.tui.picker.screen import PickerScreen
from inspector.tui.review.screen import ReviewScreen
from tests.helpers.pilot import play, rows, until
from tests.helpers.postgres_cluster import free_port
from tests.helpers.postgres_histories import build_rubyllm_postgres

PASSWORD = "s3cret-pw"


def _with_password(url: str) -> str:
    """`url` with a password (the test server trusts every login, so it is ignored)."""
    return url.replace("postgres@", f"postgres:{PASSWORD}@")


def _rows(url: str, sql: str) -> list[tuple]:
    with psycopg.connect(url) as conn:
        return conn.execute(sql).fetchall()


async def _approve_and_export_in_place(pilot: Pilot) -> ReviewScreen:
    """Approve the finding shown, then export in place (the box ticked, as the dialog asks)."""
    review = pilot.app.screen
    assert isinstance(review, ReviewScreen)
    await until(pilot, lambda: review.review is not None, "the review screen to read its review")
    await pilot.press("a", "x")
    await until(pilot, lambda: isinstance(pilot.app.screen, ServerExportDialog), "the server export dialog")
    dialog = pilot.app.screen
    said = " ".join(str(hint.visual) for hint in dialog.query(".hint"))
    assert "inspector_fixes and inspector_changes keep each change's before-value" in said
    assert f"`inspector undo {dialog.url}` reverts it" in said and PASSWORD not in said
    dialog.query_one("#in-place", Checkbox).focus()
    await pilot.press("space", "enter")
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    return review


def _notes(app: InspectorApp) -> list[str]:
    return [f"{note.title} {note.message}" for note in app._notifications]


def test_the_picker_lists_a_servers_conversations_one_is_fixed_in_place_and_undo_reverts_it(postgres_db, empty_home):
    url = build_rubyllm_postgres(postgres_db)
    original = _rows(url, "SELECT id, content FROM messages ORDER BY id")
    notes: list[str] = []

    async def scenario(pilot: Pilot) -> None:
        picker = pilot.app.screen
        assert isinstance(picker, PickerScreen)
        assert PASSWORD not in picker.heading and url in picker.heading
        table = picker.query_one(DataTable)
        await until(pilot, picker.scanned.is_set, "the picker to scan every conversation")
        await pilot.pause()
        assert [row[1:5] for row in rows(table)] == [
            ["1", "1 result-prefix", "10", "rubyllm"],
            ["2", "none", "4", "rubyllm"],
            ["3", "1 tool-markup", "2", "rubyllm"],
            ["4", "none", "2", "rubyllm"],
        ]
        await pilot.press("enter")
        review = await _approve_and_export_in_place(pilot)
        assert review.session.session_id == "1" and not review.review.unexported
        notes.extend(_notes(pilot.app))

    play(InspectorApp(location(_with_password(url))), scenario)
    exported = next(note for note in notes if note.startswith("Exported"))
    assert f"Wrote {url}" in exported and f"inspector undo {url}" in exported and "1 fix applied" in exported
    assert not any(PASSWORD in note for note in notes)
    fixed = dict(_rows(url, "SELECT id, content FROM messages ORDER BY id"))
    assert [(key, fixed[key]) for key, _ in original if key != 6] == [row for row in original if row[0] != 6]
    assert (
        fixed[6]
        == original[5][1].partition("}")[2]
        == ("You saw right through me. I have noted how scattered this week felt.")
    )
    assert len(fixed) == len(original) + 2  # the leaked result's prefix cut off, its call and result recorded
    assert _rows(url, "SELECT session_id, kind FROM inspector_fixes") == [("1", "result-prefix")]
    changes = _rows(url, 'SELECT "table", row_key, before FROM inspector_changes ORDER BY id')
    assert ("messages", "[6]") in [(table, key) for table, key, _ in changes]
    assert json.loads(next(before for table, key, before in changes if key == "[6]"))["content"] == original[5][1]
    (saved,) = (empty_home / ".local/state/inspector/reviews").glob("*.review.json")
    assert saved.name.startswith(url.rsplit("/", 1)[1] + ".") and PASSWORD not in saved.name
    text = saved.read_text()
    assert PASSWORD not in text and json.loads(text)["source"] == url
    assert main(["undo", url]) == 0
    assert _rows(url, "SELECT id, content FROM messages ORDER BY id") == original


def test_a_row_changed_since_the_app_read_it_refuses_the_export_and_keeps_the_decision(postgres_db):
    url = build_rubyllm_postgres(postgres_db)
    notes: list[str] = []

    async def scenario(pilot: Pilot) -> None:
        review = pilot.app.screen
        await until(pilot, lambda: review.review is not None, "the review screen to read its review")
        with psycopg.connect(url) as conn:  # the chat application writes to the conversation shown
            conn.execute("UPDATE messages SET content = 'edited by the app' WHERE id = 6")
        await _approve_and_export_in_place(pilot)
        assert review.review.status(0, 0) == "approved" and review.review.unexported
        notes.extend(_notes(pilot.app))

    play(InspectorApp(location(url), session="1"), scenario)
    (failed,) = [note for note in notes if note.startswith("Export failed")]
    assert "\n" not in failed and "conversation 1 is no longer as it was read" in failed
    assert "the database is unchanged" in failed
    assert _rows(url, "SELECT content FROM messages WHERE id = 6") == [("edited by the app",)]
    assert _rows(url, "SELECT to_regclass('inspector_fixes') IS NULL") == [(True,)]


def test_a_server_conversation_exported_as_openai_goes_to_a_new_file_and_leaves_the_database(postgres_db, tmp_path):
    url = build_rubyllm_postgres(postgres_db)
    before = _rows(url, "SELECT * FROM messages ORDER BY id")
    out = tmp_path / "chat.openai.json"

    async def scenario(pilot: Pilot) -> None:
        review = pilot.app.screen
        await until(pilot, lambda: review.review is not None, "the review screen to read its review")
        await pilot.press("a", "x")
        await until(pilot, lambda: isinstance(pilot.app.screen, ServerExportDialog), "the server export dialog")
        path = pilot.app.screen.query_one("#path", Input)
        assert path.value == str(Path.cwd() / f"{url.rsplit('/', 1)[1]}.fixed.openai.json")
        path.value = str(out)
        await pilot.press("enter")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    play(InspectorApp(location(url), session="1"), scenario)
    messages = json.loads(out.read_text())["messages"]
    assert "You saw right through me. I have noted how scattered this week felt." in [m["content"] for m in messages]
    assert not any("success: true" in (m["content"] or "") for m in messages)  # the leaked result cut off
    assert _rows(url, "SELECT * FROM messages ORDER BY id") == before
    assert _rows(url, "SELECT to_regclass('inspector_fixes') IS NULL") == [(True,)]


def test_a_named_table_on_a_server_lists_its_conversations(postgres_db):
    with psycopg.connect(postgres_db) as conn:
        conn.execute("CREATE TABLE notes (note_id serial PRIMARY KEY, thread text, who text, body text)")
        conn.execute(
            "INSERT INTO notes (thread, who, body) VALUES ('a', 'human', 'hi'), "
            "('a', 'ai', '<tool_call>{\"name\": \"whiteboard\", \"arguments\": {}}</tool_call>'), "
            "('b', 'human', 'bye')"
        )

    async def scenario(pilot: Pilot) -> None:
        picker = pilot.app.screen
        await until(pilot, picker.scanned.is_set, "the picker to scan every conversation")
        await pilot.pause()
        assert "(table notes)" in picker.heading
        assert [row[1:4] for row in rows(picker.query_one(DataTable))] == [
            ["a", "1 tool-markup", "2"],
            ["b", "none", "1"],
        ]

    named = ReadOptions("notes", {"role": "who", "content": "body", "session": "thread"})
    play(InspectorApp(location(postgres_db), named=named), scenario)


def test_a_server_that_cannot_be_read_is_one_line_before_any_screen_without_the_password(postgres_server, capsys):
    down = f"postgresql://someone:{PASSWORD}@127.0.0.1:{free_port()}/app"
    with psycopg.connect(postgres_server.url(), autocommit=True) as conn:
        conn.execute("CREATE DATABASE app_locked")
        conn.execute("REVOKE CONNECT ON DATABASE app_locked FROM PUBLIC")
        conn.execute("DROP ROLE IF EXISTS visitor")
        conn.execute("CREATE ROLE visitor LOGIN")
    locked = postgres_server.url("app_locked").replace("postgres@", f"visitor:{PASSWORD}@")
    for arguments, said in (
        ([down], "PostgreSQL error while"),
        ([down, "--session", "1"], "PostgreSQL error while"),
        ([f"postgresql://someone:{PASSWORD}@[::1/app"], "IPv6 host address"),
        ([locked], "permission denied for database"),
        (
            [_with_password(postgres_server.url()), "--table", "nosuch", "--map", "role=a,content=b"],
            "no table 'nosuch'",
        ),
    ):
        capsys.readouterr()
        assert main(arguments) == 2, arguments
        captured = capsys.readouterr()
        assert captured.err.count("\n") == 1 and said in captured.err, captured.err
        assert PASSWORD not in captured.err + captured.out and "Traceback" not in captured.err
    code = (
        "import sys; sys.modules['psycopg'] = None\n"  # as on a machine where psycopg is not installed
        "from inspector.cli.main import main\nsys.exit(main([sys.argv[1]]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, _with_password(postgres_server.url())],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).parent,
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "install inspector[postgres]" in done.stderr
