"""`fix --in-place` on PostgreSQL writes the conversations a batch at a time: the round trips it
makes to the server (counted on the wire, with libpq's trace of every connection it opens) grow by
a few per conversation fixed, whatever its length, and a concurrent program's update to a
conversation of a later batch is still kept, refusing the fix, with nothing written."""

from __future__ import annotations

import threading
import time

import psycopg
import pytest

from inspector.cli.main import main
from inspector.sources.postgres.write import PostgresWriter
from tests.helpers.postgres_histories import build_rubyllm_postgres
from tests.helpers.rubyllm import SEED_000_CHATS


def _chat(number: int, exchanges: int) -> list:
    """A chat of `exchanges` real whiteboard calls answered, then a reply printing a call as
    `<tool_call>` markup (a `tool-markup` fix recovers it: new rows, and the reply rewritten)."""
    chat = []
    for exchange in range(exchanges):
        call = f"call_{number}_{exchange}"
        chat += [
            ("user", f"What is on the board for week {exchange}?", None),
            ("assistant", "", [(call, "whiteboard", '{"action": "get", "board_id": "week"}')]),
            ("tool", '{"board_id": "week", "content": "Dentist Tue; run Thu"}', call),
            ("assistant", "Your board says: dentist on Tuesday and a run on Thursday.", None),
        ]
    return chat + SEED_000_CHATS[2]


def _round_trips(monkeypatch, tmp_path, url: str) -> int:
    """Run `fix --accept all --in-place` on `url`; the round trips its connections made: each
    time the client asked for answers (a simple `Query`, a `Sync` ending a statement or a
    pipeline, a `Flush` asking a pipeline's results so far) and the server then answered."""
    traces = []
    connect = psycopg.connect

    def traced(*args, **kwargs):
        conn = connect(*args, **kwargs)
        traces.append(open(tmp_path / f"trace-{len(traces)}.txt", "w"))
        conn.pgconn.trace(traces[-1].fileno())
        conn.pgconn.set_trace_flags(psycopg.pq.Trace.SUPPRESS_TIMESTAMPS)
        return conn

    with monkeypatch.context() as patched:
        patched.setattr(psycopg, "connect", traced)
        assert main(["fix", url, "--accept", "all", "--in-place"]) == 0
    for trace in traces:
        trace.close()
    trips = 0
    for trace in traces:
        asked = False
        for fields in (line.split("\t") for line in open(trace.name, encoding="utf-8", errors="replace")):
            if fields[0] == "F" and len(fields) > 2 and fields[2].strip() in ("Query", "Sync", "Flush"):
                asked = True
            elif fields[0] == "B" and asked:
                trips, asked = trips + 1, False
    return trips


def test_round_trips_grow_by_a_few_per_conversation_fixed_whatever_its_length(
    postgres_server, monkeypatch, tmp_path, capsys
):
    if psycopg.pq.version() < 140000:  # libpq's trace flags (and pipeline mode) came with 14
        pytest.skip("libpq 14 or later")

    def trips(chats: int, exchanges: int) -> int:
        url = build_rubyllm_postgres(postgres_server.database(), [_chat(n, exchanges) for n in range(chats)])
        return _round_trips(monkeypatch, tmp_path, url)

    few = trips(5, 1)
    longer = trips(5, 12)  # 5 chats of 50 messages instead of 6
    more = trips(25, 1)
    assert longer - few <= 2, (few, longer)  # not one more per message or call (a fetch of 2,000 rows at most)
    # each conversation's own (6 today, about 40 a conversation before batches): its tool_calls
    # rows, the message before the new ones, the unique call id, three inserts returning their ids
    # (the reply's update waits for no answer); the locks, checks and images are a batch's
    assert (more - few) / 20 <= 8, (few, more)


def _waiting_for_a_lock(url: str, application: str) -> None:
    """Return once a connection named `application` waits for a row lock (at most 20 s)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with psycopg.connect(url) as conn:
            if conn.execute(
                "SELECT 1 FROM pg_stat_activity WHERE application_name = %s AND wait_event_type = 'Lock'", [application]
            ).fetchall():
                return
        time.sleep(0.05)
    raise AssertionError(f"{application} never waited for a lock")


def _rows(url: str, sql: str) -> list[tuple]:
    with psycopg.connect(url) as conn:
        return conn.execute(sql).fetchall()


def test_an_update_to_a_conversation_of_a_later_batch_is_kept_and_refuses_the_fix(postgres_db, monkeypatch, capsys):
    url = build_rubyllm_postgres(postgres_db, [_chat(n, 1) for n in range(5)])  # 6 messages each
    monkeypatch.setattr(PostgresWriter, "batch", 2)  # batches: chats 1-2, 3-4, 5
    before = _rows(url, "SELECT * FROM messages ORDER BY id")
    with psycopg.connect(url, application_name="chat-app") as app:
        app.execute("UPDATE messages SET content = 'edited by the app' WHERE id = 19")  # chat 4's first message
        codes: list[int] = []
        fixing = threading.Thread(target=lambda: codes.append(main(["fix", url, "--accept", "all", "--in-place"])))
        fixing.start()
        _waiting_for_a_lock(url, "inspector")  # chats 1 and 2 written, chat 3 locked, waiting for chat 4
    fixing.join(timeout=30)  # the app committed on leaving the block
    assert codes == [2]
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "conversation 4: messages row 19 changed since this fix read it" in error
    assert "the database is unchanged" in error
    assert _rows(url, "SELECT * FROM messages ORDER BY id") == [
        row if row[0] != 19 else _rows(url, "SELECT * FROM messages WHERE id = 19")[0] for row in before
    ]  # only the app's update
    assert _rows(url, "SELECT content FROM messages WHERE id = 19") == [("edited by the app",)]
    assert _rows(url, "SELECT to_regclass('inspector_fixes') IS NULL") == [(True,)]


def test_a_row_written_again_with_the_same_values_does_not_refuse_the_fix(postgres_db, capsys):
    url = build_rubyllm_postgres(postgres_db, [_chat(n, 1) for n in range(3)])
    with psycopg.connect(url, application_name="chat-app") as app:
        app.execute("UPDATE messages SET content = content WHERE id = 7")  # a new version of chat 2's first row
        codes: list[int] = []
        fixing = threading.Thread(target=lambda: codes.append(main(["fix", url, "--accept", "all", "--in-place"])))
        fixing.start()
        _waiting_for_a_lock(url, "inspector")
    fixing.join(timeout=30)
    assert codes == [0]  # its version changed, not its values: compared whole, the row is as read
    assert _rows(url, "SELECT session_id, kind FROM inspector_fixes ORDER BY id") == [
        ("1", "tool-markup"),
        ("2", "tool-markup"),
        ("3", "tool-markup"),
    ]
    assert main(["undo", url]) == 0


def test_a_message_another_program_adds_while_the_batch_is_locked_is_not_the_fixs_to_undo(postgres_db, capsys):
    url = build_rubyllm_postgres(postgres_db)  # chats 1 and 3 have fixes: one batch
    with (
        psycopg.connect(url, application_name="holder") as holder,
        psycopg.connect(url, application_name="chat-app", autocommit=True) as app,
    ):
        holder.execute("SELECT id FROM messages WHERE chat_id = 3 FOR UPDATE")
        codes: list[int] = []
        fixing = threading.Thread(target=lambda: codes.append(main(["fix", url, "--accept", "all", "--in-place"])))
        fixing.start()
        _waiting_for_a_lock(url, "inspector")  # chat 1 locked, not yet written; the fix waits for chat 3
        (added,) = app.execute(
            "INSERT INTO messages (chat_id, role, content, created_at, updated_at) VALUES "
            "(1, 'user', 'sent meanwhile', now(), now()) RETURNING id"
        ).fetchone()
        holder.rollback()
        fixing.join(timeout=30)
    assert codes == [0]
    assert _rows(
        url,
        "SELECT count(*) FROM inspector_changes WHERE \"table\" = 'messages' AND before IS NULL "
        "AND after::jsonb ->> 'content' = 'sent meanwhile'",
    ) == [(0,)]  # not the fix's insert
    assert main(["undo", url]) == 0
    assert _rows(url, f"SELECT content FROM messages WHERE id = {added}") == [("sent meanwhile",)]


def _history(url: str) -> list[list[tuple]]:
    return [
        _rows(url, "SELECT id, chat_id, role, content, tool_call_id FROM messages ORDER BY id"),
        _rows(url, "SELECT id, message_id, tool_call_id, name, arguments FROM tool_calls ORDER BY id"),
    ]


def _changes(url: str) -> list[tuple]:
    return _rows(
        url, 'SELECT session_id, "table", row_key, before IS NULL, after IS NULL FROM inspector_changes ORDER BY id'
    )


def test_with_a_libpq_older_than_pipeline_mode_the_fix_writes_the_same(postgres_server, monkeypatch, capsys):
    if not hasattr(psycopg, "capabilities"):  # psycopg 3.1 cannot be told libpq lacks pipelines
        pytest.skip("psycopg 3.2 or later")
    piped = build_rubyllm_postgres(postgres_server.database())
    assert main(["fix", piped, "--accept", "all", "--in-place"]) == 0

    def has_pipeline(check: bool = False) -> bool:  # as on a libpq 13: entering a pipeline fails
        if check:
            raise psycopg.NotSupportedError("pipeline mode needs libpq 14")
        return False

    monkeypatch.setattr(psycopg.capabilities, "has_pipeline", has_pipeline)
    url = build_rubyllm_postgres(postgres_server.database())
    original = _history(url)
    assert main(["fix", url, "--accept", "all", "--in-place"]) == 0
    assert _history(url) == _history(piped) != original and _changes(url) == _changes(piped)
    assert main(["undo", url]) == 0
    assert _history(url) == original
