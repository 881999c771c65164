"""Chat histories on a real PostgreSQL server, started by the test suite itself
(`tests/conftest.py`): RubyLLM's Rails tables, a table named with `--table/--map` and LangChain's
`message_store` are scanned as the same histories are in SQLite, one conversation at a time
through a read-only transaction; a bad URL, a server that is down and a missing psycopg are one
line each, exit 2, with no password shown."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
import time

import psycopg

from inspector.cli.main import main
from inspector.sources import open_source
from tests.helpers.postgres_cluster import free_port
from tests.helpers.postgres_histories import POSTGRES_CHATS, build_message_store_postgres, build_rubyllm_postgres
from tests.helpers.rubyllm import build_rubyllm
from tests.helpers.samples import LANGCHAIN_SQL


def _report(capsys, *arguments: str) -> tuple[int, dict]:
    capsys.readouterr()
    code = main(["scan", "--json", *arguments])
    return code, json.loads(capsys.readouterr().out)


def _findings(report: dict) -> dict[str, list[tuple]]:
    return {
        s["session_id"]: [(f["turn"], f["kind"], f["tool"], f["message"]) for f in s["findings"]]
        for s in report["sessions"]
    }


def _rows(url: str, sql: str, params=()) -> list[tuple]:
    with psycopg.connect(url) as conn:
        return conn.execute(sql, params).fetchall()


def test_a_rubyllm_history_on_postgresql_reads_as_the_same_history_in_sqlite(postgres_db, tmp_path, capsys):
    url = build_rubyllm_postgres(postgres_db)
    code, report = _report(capsys, url)
    assert code == 1
    sqlite_code, sqlite_report = _report(capsys, str(build_rubyllm(tmp_path / "app.db", POSTGRES_CHATS)))
    assert _findings(report) == _findings(sqlite_report)
    assert _findings(report)["1"][0][:3] == (5, "result-prefix", "save_memory")
    assert report["summary"]["turns"] == sqlite_report["summary"]["turns"] == 18
    assert {s["format"] for s in report["sessions"]} == {"rubyllm"}
    assert {s["path"] for s in report["sessions"]} == {url}
    source = open_source(url)
    assert source.listing() == open_source(tmp_path / "app.db").listing() == [("1", 10), ("2", 4), ("3", 2), ("4", 2)]
    chat = source.session("1")
    (call,) = chat.turns[7].tool_calls
    assert (call.id, call.name, call.arguments) == ("call_wb_1", "whiteboard", {"action": "get", "board_id": "week"})
    assert chat.turns[8].tool_results[0].name == "whiteboard"
    code, one = _report(capsys, url, "--session", "3")
    assert [s["session_id"] for s in one["sessions"]] == ["3"]


def test_reading_runs_in_a_read_only_transaction(postgres_db):
    url = build_rubyllm_postgres(postgres_db)
    source = open_source(url)
    sessions = source.sessions()
    next(sessions)
    (state,) = _rows(
        url,
        "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'inspector' AND state = 'idle in transaction'",
    )
    assert state == (1,)  # the reading transaction stays open between conversations: one snapshot
    assert [s.session_id for s in sessions] == ["2", "3", "4"]
    with psycopg.connect(url) as conn:  # the same settings refuse a write
        conn.read_only = True
        try:
            conn.execute("DELETE FROM tool_calls")
            raise AssertionError("a read-only transaction wrote")
        except psycopg.errors.ReadOnlySqlTransaction:
            pass


def test_a_named_table_and_langchains_message_store_read_as_in_sqlite(postgres_db, tmp_path, capsys):
    conn = sqlite3.connect(LANGCHAIN_SQL)
    stored = conn.execute("SELECT session_id, message FROM message_store ORDER BY id").fetchall()
    conn.close()
    sessions: dict[str, list[dict]] = {}
    for session_id, message in stored:
        sessions.setdefault(session_id, []).append(json.loads(message))
    url = build_message_store_postgres(postgres_db, sessions)
    code, report = _report(capsys, url)
    _, expected = _report(capsys, str(LANGCHAIN_SQL))
    assert {s["format"] for s in report["sessions"]} == {"langchain-sql"}
    assert _findings(report) == _findings(expected) and code == 1
    with psycopg.connect(url) as conn:
        conn.execute("CREATE TABLE notes (note_id serial PRIMARY KEY, thread text, who text, body text)")
        conn.execute(
            "INSERT INTO notes (thread, who, body) VALUES ('a', 'human', 'hi'), "
            "('a', 'ai', '<tool_call>{\"name\": \"whiteboard\", \"arguments\": {}}</tool_call>'), "
            "('b', 'human', 'bye')"
        )
    code, report = _report(capsys, url, "--table", "notes", "--map", "role=who,content=body,session=thread")
    assert [(s["session_id"], s["turns"]) for s in report["sessions"]] == [("a", 2), ("b", 1)]
    assert [f["kind"] for f in report["sessions"][0]["findings"]] == ["tool-markup"]


def test_a_bad_url_or_a_server_that_is_down_is_one_line_without_the_password(postgres_server, capsys):
    down = f"postgresql://someone:s3cret-pw@127.0.0.1:{free_port()}/app"
    for url, said in (
        (down, "PostgreSQL error while"),
        (postgres_server.url("no_such_db").replace("postgres@", "postgres:s3cret-pw@"), "no_such_db"),
        ("postgresql://someone:s3cret-pw@127.0.0.1:notaport/app", "port"),
    ):
        capsys.readouterr()
        assert main(["scan", url]) == 2
        captured = capsys.readouterr()
        assert captured.err.count("\n") == 1 and said in captured.err, captured.err
        assert "s3cret-pw" not in captured.err + captured.out and "Traceback" not in captured.err
    assert main(["fix", down, "--accept", "all", "--in-place"]) == 2
    assert "s3cret-pw" not in capsys.readouterr().err


def test_without_psycopg_the_line_says_how_to_install_it(postgres_server):
    code = (
        "import sys; sys.modules['psycopg'] = None\n"  # as on a machine where psycopg is not installed
        "from inspector.cli.main import main\nsys.exit(main(['scan', sys.argv[1]]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, postgres_server.url()], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "install inspector[postgres]" in done.stderr


def test_fix_in_place_writes_what_sqlite_gets_and_records_every_change_with_its_before_value(
    postgres_db, tmp_path, capsys
):
    url = build_rubyllm_postgres(postgres_db)
    before = _rows(url, "SELECT id, content FROM messages ORDER BY id")
    assert main(["fix", url, "--accept", "all", "--in-place"]) == 0
    said = capsys.readouterr().out
    assert "backup:" not in said and "inspector_fixes" in said
    copy = tmp_path / "fixed.db"
    assert (
        main(["fix", str(build_rubyllm(tmp_path / "app.db", POSTGRES_CHATS)), "--accept", "all", "-o", str(copy)]) == 0
    )
    conn = sqlite3.connect(copy)
    expected = conn.execute("SELECT chat_id, role, content FROM messages ORDER BY chat_id, created_at, id").fetchall()
    expected_calls = conn.execute("SELECT name, arguments FROM tool_calls ORDER BY id").fetchall()
    conn.close()
    assert _rows(url, "SELECT chat_id, role, content FROM messages ORDER BY chat_id, created_at, id") == expected
    assert [(name, json.loads(arguments)) for name, arguments in expected_calls] == _rows(
        url, "SELECT name, arguments FROM tool_calls ORDER BY id"
    )
    fixes = _rows(url, "SELECT session_id, kind, before, after, run IS NOT NULL FROM inspector_fixes ORDER BY id")
    assert [(session, kind, ok) for session, kind, _, _, ok in fixes] == [
        ("1", "result-prefix", True),
        ("3", "tool-markup", True),
    ]
    assert fixes[0][2] == before[5][1] and fixes[0][3] == _rows(url, "SELECT content FROM messages WHERE id = 6")[0][0]
    changes = _rows(url, 'SELECT "table", row_key, before, after FROM inspector_changes ORDER BY id')
    edited = [
        (json.loads(b)["content"], json.loads(a)["content"])
        for table, key, b, a in changes
        if table == "messages" and key == "[6]"
    ]
    assert edited == [(before[5][1], fixes[0][3])]
    assert any(table == "tool_calls" and b is None for table, _, b, _ in changes)  # the recovered call, inserted
    assert main(["fix", url, "--accept", "all", "--in-place"]) == 0  # nothing left to do, nothing applied twice
    assert len(_rows(url, "SELECT id FROM inspector_fixes")) == 2


def test_fix_on_a_server_refuses_a_copy_saying_why(postgres_db, capsys):
    url = build_rubyllm_postgres(postgres_db)
    assert main(["fix", url, "--accept", "all", "-o", "fixed.db"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "cannot be copied like a file: fix it with --in-place" in error
    assert _rows(url, "SELECT to_regclass('inspector_fixes') IS NULL") == [(True,)]


def test_the_databases_own_triggers_are_refused_unless_allowed(postgres_db, capsys):
    url = build_rubyllm_postgres(postgres_db)
    with psycopg.connect(url) as conn:
        conn.execute("CREATE TABLE edits (message_id bigint)")
        conn.execute(
            "CREATE FUNCTION note_edit() RETURNS trigger LANGUAGE plpgsql AS "
            "$$ BEGIN INSERT INTO edits VALUES (NEW.id); RETURN NEW; END $$"
        )
        conn.execute("CREATE TRIGGER note_edits AFTER UPDATE ON messages FOR EACH ROW EXECUTE FUNCTION note_edit()")
    before = _rows(url, "SELECT id, content FROM messages ORDER BY id")
    assert main(["fix", url, "--accept", "all", "--in-place"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "trigger note_edits (on messages)" in error and "--allow-triggers" in error
    assert _rows(url, "SELECT id, content FROM messages ORDER BY id") == before
    assert main(["fix", url, "--accept", "all", "--in-place", "--allow-triggers"]) == 0
    assert _rows(url, "SELECT message_id FROM edits ORDER BY 1") == [(6,), (16,)]  # the two messages repaired


def _waiting_for_a_lock(url: str, application: str) -> None:
    """Return once a connection named `application` waits for a row lock (at most 20 s)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if _rows(
            url,
            "SELECT 1 FROM pg_stat_activity WHERE application_name = %s AND wait_event_type = 'Lock'",
            [application],
        ):
            return
        time.sleep(0.05)
    raise AssertionError(f"{application} never waited for a lock")


def _fix_in_a_thread(url: str) -> tuple[threading.Thread, list[int]]:
    codes: list[int] = []
    fixing = threading.Thread(target=lambda: codes.append(main(["fix", url, "--accept", "all", "--in-place"])))
    fixing.start()
    return fixing, codes


def test_an_update_committed_after_the_fix_read_the_row_is_kept_and_the_fix_refused(postgres_db, capsys):
    url = build_rubyllm_postgres(postgres_db)
    with psycopg.connect(url, application_name="chat-app") as app:
        app.execute("UPDATE messages SET content = 'edited by the app' WHERE id = 6")  # not committed yet
        fixing, codes = _fix_in_a_thread(url)
        _waiting_for_a_lock(url, "inspector")  # the fix has read the old text and waits for the row
    fixing.join(timeout=30)  # the app committed on leaving the block
    assert codes == [2]
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "conversation 1: messages row 6 changed since this fix read it" in error
    assert "the database is unchanged" in error
    assert _rows(url, "SELECT content FROM messages WHERE id = 6") == [("edited by the app",)]
    assert _rows(url, "SELECT to_regclass('inspector_fixes') IS NULL") == [(True,)]


def test_an_update_made_while_the_fix_holds_the_row_waits_and_lands_after_it(postgres_db, capsys):
    url = build_rubyllm_postgres(postgres_db)
    with (
        psycopg.connect(url, application_name="holder") as holder,
        psycopg.connect(url, application_name="chat-app", autocommit=True) as app,
    ):
        holder.execute("SELECT id FROM messages WHERE chat_id = 3 FOR UPDATE")  # holds chat 3 without changing it
        fixing, codes = _fix_in_a_thread(url)
        _waiting_for_a_lock(
            url, "inspector"
        )  # chat 1 locked (its batch's rows before any is written); waits for chat 3
        editing = threading.Thread(
            target=lambda: app.execute("UPDATE messages SET content = 'edited by the app' WHERE id = 6")
        )
        editing.start()
        _waiting_for_a_lock(url, "chat-app")  # the app's update waits for the fix's lock on message 6
        holder.rollback()
        fixing.join(timeout=30)
        editing.join(timeout=30)
    assert codes == [0]
    assert _rows(url, "SELECT content FROM messages WHERE id = 6") == [("edited by the app",)]  # landed on top
    assert _rows(url, "SELECT session_id, kind FROM inspector_fixes ORDER BY id") == [
        ("1", "result-prefix"),
        ("3", "tool-markup"),
    ]


def _history(url: str) -> list[list[tuple]]:
    return [_rows(url, "SELECT * FROM messages ORDER BY id"), _rows(url, "SELECT * FROM tool_calls ORDER BY id")]


def test_undo_puts_every_row_back_and_a_fix_undone_may_be_applied_again(postgres_db, capsys):
    url = build_rubyllm_postgres(postgres_db)
    original = _history(url)
    assert main(["fix", url, "--accept", "all", "--in-place"]) == 0
    fixed = _history(url)
    assert fixed != original and len(fixed[1]) == len(original[1]) + 2  # two recovered calls
    capsys.readouterr()
    assert main(["undo", url]) == 0
    assert "undid fixes 1, 2 in 2 conversations" in capsys.readouterr().out
    assert _history(url) == original  # the inserted call and its answer gone, the text as it was
    assert _rows(url, "SELECT id, kind, undone_at IS NOT NULL FROM inspector_fixes ORDER BY id") == [
        (1, "result-prefix", True),
        (2, "tool-markup", True),
        (3, "undo", False),
        (4, "undo", False),
    ]
    assert main(["undo", url]) == 2 and "no fix is left to undo" in capsys.readouterr().err
    assert main(["fix", url, "--accept", "all", "--in-place"]) == 0  # undone: applied again
    assert _history(url)[0][5][3] == fixed[0][5][3]


def test_undo_refuses_a_row_changed_since_the_fix_and_undoes_nothing(postgres_db, capsys):
    url = build_rubyllm_postgres(postgres_db)
    assert main(["fix", url, "--accept", "all", "--in-place"]) == 0
    with psycopg.connect(url) as conn:
        conn.execute("UPDATE messages SET content = 'edited by the app' WHERE id = 6")
    fixed = _history(url)
    capsys.readouterr()
    assert main(["undo", url, "--since", "2020-01-01"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "conversation 1: messages row 6 changed since fix 1 wrote it" in error
    assert _history(url) == fixed and _rows(
        url, "SELECT count(*) FROM inspector_fixes WHERE undone_at IS NOT NULL"
    ) == [(0,)]
    assert main(["undo", url, "--fix", "2"]) == 0  # the other conversation's fix is its own
    assert _rows(url, "SELECT content FROM messages WHERE id = 6") == [("edited by the app",)]


def test_undo_refuses_the_databases_own_triggers_unless_allowed(postgres_db, capsys):
    url = build_rubyllm_postgres(postgres_db)
    assert main(["fix", url, "--accept", "all", "--in-place"]) == 0
    with psycopg.connect(url) as conn:  # added after the fix: it would see every row undo puts back
        conn.execute("CREATE TABLE edits (message_id bigint)")
        conn.execute(
            "CREATE FUNCTION note_edit() RETURNS trigger LANGUAGE plpgsql AS "
            "$$ BEGIN INSERT INTO edits VALUES (NEW.id); RETURN NEW; END $$"
        )
        conn.execute("CREATE TRIGGER note_edits AFTER UPDATE ON messages FOR EACH ROW EXECUTE FUNCTION note_edit()")
    fixed = _history(url)
    capsys.readouterr()
    assert main(["undo", url]) == 2
    error = capsys.readouterr().err
    assert error == (
        f"inspector: error: {url}: the database's own trigger note_edits (on messages) would run on the "
        "rows this undo writes, and could change them (--allow-triggers lets it run); nothing was undone\n"
    )
    assert _history(url) == fixed
    assert _rows(url, "SELECT count(*) FROM inspector_fixes WHERE kind = 'undo' OR undone_at IS NOT NULL") == [(0,)]
    assert main(["undo", url, "--allow-triggers"]) == 0
    assert _rows(url, "SELECT message_id FROM edits ORDER BY 1") == [(6,), (16,)]  # the two messages put back
