"""The app on a history kept on a real PostgreSQL server (started by the test suite,
`postgres_server.py`), opened by its URL as an SQLite history is by its name: the picker lists the
conversations, and a server that cannot be read is one line before any screen."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import psycopg
from postgres_cluster import _free_port
from postgres_server import postgres_db, postgres_server  # noqa: F401  (fixtures)
from textual.pilot import Pilot
from textual.widgets import DataTable

from test_tui_picker import rows

from inspector.cli.main import main
from inspector.sources import location
from inspector.tui.app import InspectorApp
from inspector.tui.conversations import NamedTable
from inspector.tui.picker import PickerScreen

PASSWORD = "s3cret-pw"


def _with_password(url: str) -> str:
    """`url` with a password (the test server trusts every login, so it is ignored)."""
    return url.replace("postgres@", f"postgres:{PASSWORD}@")


def _play(app: InspectorApp, scenario) -> None:
    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await asyncio.wait_for(scenario(pilot), timeout=30)

    asyncio.run(run())


async def _until(pilot: Pilot, condition) -> None:
    while not condition():
        await pilot.pause(0.01)


def test_a_named_table_on_a_server_lists_its_conversations(postgres_db):
    with psycopg.connect(postgres_db) as conn:
        conn.execute("CREATE TABLE notes (note_id serial PRIMARY KEY, thread text, who text, body text)")
        conn.execute("INSERT INTO notes (thread, who, body) VALUES ('a', 'human', 'hi'), "
                     "('a', 'ai', '<tool_call>{\"name\": \"whiteboard\", \"arguments\": {}}</tool_call>'), "
                     "('b', 'human', 'bye')")

    async def scenario(pilot: Pilot) -> None:
        picker = pilot.app.screen
        await _until(pilot, picker.scanned.is_set)
        await pilot.pause()
        assert "(table notes)" in picker.heading
        assert [row[1:4] for row in rows(picker.query_one(DataTable))] == [["a", "1 tool-markup", "2"],
                                                                           ["b", "none", "1"]]

    named = NamedTable("notes", {"role": "who", "content": "body", "session": "thread"})
    _play(InspectorApp(location(postgres_db), named=named), scenario)


def test_a_server_that_cannot_be_read_is_one_line_before_any_screen_without_the_password(postgres_server, capsys):
    down = f"postgresql://someone:{PASSWORD}@127.0.0.1:{_free_port()}/app"
    with psycopg.connect(postgres_server.url(), autocommit=True) as conn:
        conn.execute("CREATE DATABASE app_locked")
        conn.execute("REVOKE CONNECT ON DATABASE app_locked FROM PUBLIC")
        conn.execute("DROP ROLE IF EXISTS visitor")
        conn.execute("CREATE ROLE visitor LOGIN")
    locked = postgres_server.url("app_locked").replace("postgres@", f"visitor:{PASSWORD}@")
    for arguments, said in (([down], "PostgreSQL error while"), ([down, "--session", "1"], "PostgreSQL error while"),
                            ([f"postgresql://someone:{PASSWORD}@[::1/app"], "IPv6 host address"),
                            ([locked], "permission denied for database"),
                            ([_with_password(postgres_server.url()), "--table", "nosuch", "--map",
                              "role=a,content=b"], "no table 'nosuch'")):
        capsys.readouterr()
        assert main(arguments) == 2, arguments
        captured = capsys.readouterr()
        assert captured.err.count("\n") == 1 and said in captured.err, captured.err
        assert PASSWORD not in captured.err + captured.out and "Traceback" not in captured.err
    code = ("import sys; sys.modules['psycopg'] = None\n"  # as on a machine where psycopg is not installed
            "from inspector.cli.main import main\nsys.exit(main([sys.argv[1]]))")
    done = subprocess.run([sys.executable, "-c", code, _with_password(postgres_server.url())], capture_output=True,
                          text=True, timeout=60, cwd=Path(__file__).parent)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "install inspector[postgres]" in done.stderr
