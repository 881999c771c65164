"""LangChain's `SQLChatMessageHistory` table as langchain-community 0.4 wrote it
(`sessions/langchain.sql.db`: session "demo" from a LangGraph agent, and a clean
"small-talk"), read one session at a time and written back in one transaction, new messages placed
where LangChain (which reads by id) reads them."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

from inspector.cli.main import main
from inspector.model import ASSISTANT, SYSTEM, TOOL
from inspector.sources import open_source
from tests.helpers.samples import LANGCHAIN_SQL

SAMPLE = LANGCHAIN_SQL
PLANTED = [
    (2, "result-prefix"),
    (4, "tool-markup"),
    (6, "malformed-arguments"),
    (6, "malformed-arguments"),
    (6, "orphan-call"),
    (6, "orphan-call"),
]


def rows(path: Path, session: str = "demo") -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(
            "SELECT id, message FROM message_store WHERE session_id = ? ORDER BY id", [session]
        ).fetchall()
    finally:
        conn.close()


def scan(path: Path, capsys, *options: str) -> list[tuple]:
    capsys.readouterr()
    main(["scan", "--json", str(path), *options])
    report = json.loads(capsys.readouterr().out)
    return [(f["turn"], f["kind"]) for s in report["sessions"] for f in s["findings"]]


def test_the_table_is_recognised_and_read_by_session():
    source = open_source(SAMPLE)
    assert (source.format, source.listing()) == ("langchain-sql", [("demo", 11), ("small-talk", 2)])
    session = source.session("demo")
    assert session.problems == ()
    assert [t.id for t in session.turns] == [str(n) for n in range(1, 12)]
    assert session.turns[0].role == SYSTEM and session.turns[9].role == TOOL
    cut, braces = session.turns[6].tool_calls
    assert (cut.arguments_raw, braces.arguments_raw) == ('{"file_path": "notes.txt"', '{"file_path": "notes.txt"}}}}')
    assert session.turns[8].role == ASSISTANT and session.turns[8].tool_calls[0].arguments == {"file_path": "notes.txt"}


def test_the_planted_failures_are_found_once_and_the_good_call_stays_clean(capsys):
    assert scan(SAMPLE, capsys) == PLANTED


def test_fix_writes_new_rows_in_langchains_order_and_keeps_moved_rows_as_they_were(tmp_path, capsys):
    out = tmp_path / "fixed.db"
    assert main(["fix", str(SAMPLE), "--accept", "all", "-o", str(out)]) == 0
    before, after = rows(SAMPLE), rows(out)
    assert after[:2] == before[:2] and after[3] == before[3]
    assert json.loads(after[2][1])["data"]["content"].startswith("You saw right through me.")
    assert [row[0] for row in after[4:]] == list(range(14, 25))  # after every id the table has given out
    moved = [before[i][1] for i in (5, 7, 8, 9, 10)]
    assert moved == [after[i][1] for i in (7, 11, 12, 13, 14)]  # byte for byte
    fixed = json.loads(after[8][1])["data"]
    assert fixed["invalid_tool_calls"] == [] and len(fixed["tool_calls"]) == 2
    assert rows(out, "small-talk") == rows(SAMPLE, "small-talk")
    assert scan(out, capsys) == []
    conn = sqlite3.connect(out)
    audit = conn.execute('SELECT "table", row_id, kind, note FROM inspector_fixes ORDER BY id').fetchall()
    conn.close()
    assert [row[:3] for row in audit] == [
        ("message_store", "3", "result-prefix"),
        ("message_store", "16", "tool-markup"),
    ] + [("message_store", "18", kind) for kind in ("malformed-arguments",) * 2 + ("orphan-call",) * 2]
    assert audit[0][3] is None and audit[1][3].startswith("row 5 is now row 16: the session's rows from row 5 on")


def test_repaired_arguments_alone_are_written_over_their_row(tmp_path):
    out = tmp_path / "fixed.db"
    main(["fix", str(SAMPLE), "--accept", "malformed-arguments", "-o", str(out)])
    before, after = rows(SAMPLE), rows(out)
    assert [row[0] for row in after] == [row[0] for row in before]
    assert [n for n, (old, new) in enumerate(zip(before, after)) if old != new] == [6]
    data = json.loads(after[6][1])["data"]
    assert [c["function"]["arguments"] for c in data["additional_kwargs"]["tool_calls"]] == [
        '{"file_path": "notes.txt"}'
    ] * 2


def test_unreadable_rows_are_counted_and_left_as_they_were(tmp_path, capsys):
    path = Path(shutil.copy(SAMPLE, tmp_path / "app.db"))
    conn = sqlite3.connect(path)
    conn.executemany(
        "INSERT INTO message_store (session_id, message) VALUES (?, ?)",
        [("demo", "{not json"), ("demo", json.dumps({"type": "remove", "data": {"id": "x"}}))],
    )
    conn.commit()
    conn.close()
    assert open_source(path).session("demo").problems == (
        "1 row whose message is not JSON not read as a turn",
        "1 message of type 'remove' not read as a turn",
    )
    assert main(["fix", str(path), "--accept", "all", "--in-place"]) == 0
    assert [text for _, text in rows(path)[-2:]] == ["{not json", json.dumps({"type": "remove", "data": {"id": "x"}})]
    assert scan(path, capsys, "--session", "demo") == []
