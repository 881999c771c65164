"""The Agents SDK's `SQLiteSession` database: the one the SDK 0.24 wrote
(`sessions/agents-sdk.session.db`, session "demo"), read one session at a time
and written back in one transaction, new items placed where the SDK (which reads by id) reads them."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.model import ASSISTANT, TOOL, USER
from inspector.sources import open_source
from tests.helpers.samples import TOOL_SAMPLES

SAMPLE = TOOL_SAMPLES / "agents-sdk.session.db"
PLANTED = [
    (1, "result-prefix", "warning"),
    (3, "tool-markup", "error"),
    (6, "malformed-arguments", "warning"),
    (8, "malformed-arguments", "error"),
]


def copy(tmp_path: Path, name: str = "app.db") -> Path:
    return Path(shutil.copy(SAMPLE, tmp_path / name))


def rows(path: Path, session: str = "demo") -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(
            "SELECT id, message_data, created_at FROM agent_messages WHERE session_id = ? ORDER BY id", [session]
        ).fetchall()
    finally:
        conn.close()


def items(path: Path, session: str = "demo") -> list:
    """The session's items as the SDK's `get_items()` reads them: `message_data` in id order."""
    return [json.loads(data) for _, data, _ in rows(path, session)]


def scan(path: Path, capsys, *options: str) -> list[tuple]:
    capsys.readouterr()  # what earlier commands printed
    main(["scan", "--json", str(path), *options])
    report = json.loads(capsys.readouterr().out)
    return [(f["turn"], f["kind"], f["severity"]) for s in report["sessions"] for f in s["findings"]]


def test_the_sdk_database_is_recognised_and_read_by_session():
    source = open_source(SAMPLE)
    assert (source.format, source.listing()) == ("agents-sdk", [("demo", 13)])
    session = source.session("demo")
    assert session.problems == ()
    assert [t.id for t in session.turns] == [str(n) for n in range(1, 14)]  # the rows' ids
    assert [t.role for t in session.turns[:3]] == [USER, ASSISTANT, USER]
    (cut,) = session.turns[6].tool_calls
    assert (cut.id, cut.arguments_raw, cut.arguments) == ("call_mock_broken_cut", '{"file_path": "notes.txt"', None)
    assert session.turns[7].role == TOOL and session.turns[7].tool_results[0].name == "read_file"


def test_the_planted_failures_are_found_and_the_good_call_stays_clean(capsys):
    assert scan(SAMPLE, capsys) == PLANTED


def test_fix_writes_new_rows_in_the_sdks_order_and_keeps_moved_rows_as_they_were(tmp_path, capsys):
    out = tmp_path / "fixed.db"
    assert main(["fix", str(SAMPLE), "--accept", "all", "-o", str(out)]) == 0
    before, after = rows(SAMPLE), rows(out)
    assert after[0] == before[0] and after[2] == before[2]
    assert after[1][0] == 2 and json.loads(after[1][1])["content"][0]["text"].startswith("You saw right through me.")
    recovered, result = (json.loads(data) for _, data, _ in after[3:5])
    assert recovered == {
        "type": "function_call",
        "call_id": "call_inspector_3_0",
        "name": "read_file",
        "arguments": '{"file_path": "notes.txt"}',
    }
    assert (result["type"], result["call_id"]) == ("function_call_output", "call_inspector_3_0")
    assert [row[0] for row in after[3:]] == list(range(14, 26))  # after every id the table has given out
    assert json.loads(after[5][1])["content"][0]["text"] == "Let me read it."
    moved = [before[i] for i in (4, 5, 7, 9, 10, 11, 12)]
    assert [(data, created) for _, data, created in moved] == [
        (data, created) for _, data, created in (after[i] for i in (6, 7, 9, 11, 12, 13, 14))
    ]
    assert json.loads(after[8][1])["arguments"] == '{"file_path": "notes.txt"}'
    assert json.loads(after[10][1])["arguments"] == '{"file_path": "notes.txt"}'
    assert {created for _, _, created in after} == {before[0][2]}
    assert scan(out, capsys) == []
    conn = sqlite3.connect(out)
    audit = conn.execute('SELECT "table", row_id, kind, note FROM inspector_fixes ORDER BY id').fetchall()
    conn.close()
    assert [row[:3] for row in audit] == [
        ("agent_messages", "2", "result-prefix"),
        ("agent_messages", "16", "tool-markup"),
        ("agent_messages", "19", "malformed-arguments"),
        ("agent_messages", "21", "malformed-arguments"),
    ]
    assert audit[0][3] is None and audit[1][3].startswith("row 4 is now row 16: the session's rows from row 4 on")


def test_repaired_arguments_alone_are_written_over_their_rows(tmp_path):
    out = tmp_path / "fixed.db"
    main(["fix", str(SAMPLE), "--accept", "malformed-arguments", "-o", str(out)])
    before, after = rows(SAMPLE), rows(out)
    assert [row[0] for row in after] == [row[0] for row in before]
    changed = [number for number, (old, new) in enumerate(zip(before, after)) if old != new]
    assert changed == [6, 8]
    assert after[6][1] == json.dumps({**json.loads(before[6][1]), "arguments": '{"file_path": "notes.txt"}'})


def test_other_sessions_and_unreadable_rows_are_left_as_they_were(tmp_path, capsys):
    path = copy(tmp_path)
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO agent_sessions (session_id) VALUES ('other')")
    conn.executemany(
        "INSERT INTO agent_messages (session_id, message_data) VALUES (?, ?)",
        [
            ("other", json.dumps({"role": "user", "content": "hello"})),
            ("demo", "{not json"),
            ("demo", "[" * 100_000 + "]" * 100_000),
            (
                "other",
                json.dumps(
                    {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "hi"}]}
                ),
            ),
        ],
    )
    conn.commit()
    conn.close()
    assert open_source(path).listing() == [("demo", 15), ("other", 2)]
    assert open_source(path).session("demo").problems == (
        "1 row whose message_data is not JSON not read as a turn",
        "1 row whose message_data is nested too deeply to read not read as a turn",
    )
    other = rows(path, "other")
    assert main(["fix", str(path), "--accept", "all", "--in-place"]) == 0
    assert (tmp_path / "app.db.bak").read_bytes() != path.read_bytes()
    assert rows(path, "other") == other
    assert [row[1][:9] for row in rows(path, "demo")[-2:]] == ["{not json", "[" * 9]
    assert scan(path, capsys, "--session", "demo") == []


def test_a_session_without_its_sessions_row_gets_one_as_the_sdk_makes_it(tmp_path):
    path = copy(tmp_path)
    conn = sqlite3.connect(path)
    conn.execute(
        "INSERT INTO agent_messages (session_id, message_data) VALUES ('lone', ?)",
        [json.dumps({"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"})],
    )
    conn.commit()
    conn.close()
    out = tmp_path / "fixed.db"
    main(["fix", str(path), "--session", "lone", "--accept", "orphan-call", "-o", str(out)])
    assert [item["type"] for item in items(out, "lone")] == ["function_call", "function_call_output"]
    conn = sqlite3.connect(out)
    assert conn.execute("SELECT count(*) FROM agent_sessions WHERE session_id = 'lone'").fetchone() == (1,)
    conn.close()
    assert rows(out) == rows(path)


def test_an_unanswered_last_call_gets_a_new_last_row(tmp_path):
    path = copy(tmp_path)
    conn = sqlite3.connect(path)
    conn.execute("DELETE FROM agent_messages WHERE id >= 12")
    conn.commit()
    conn.close()
    out = tmp_path / "fixed.db"
    main(["fix", str(path), "--accept", "orphan-call", "-o", str(out)])
    after = rows(out)
    assert after[:-1] == rows(path) and after[-1][0] == 14
    assert json.loads(after[-1][1])["call_id"] == "call_mock_good"


def test_a_session_kept_by_the_advanced_session_is_not_read_as_this_schema(tmp_path, capsys):
    path = copy(tmp_path)
    conn = sqlite3.connect(path)
    conn.execute(
        "CREATE TABLE message_structure (id INTEGER PRIMARY KEY, session_id TEXT, message_id INTEGER, "
        "branch_id TEXT, FOREIGN KEY (message_id) REFERENCES agent_messages(id) ON DELETE CASCADE)"
    )
    conn.commit()
    conn.close()
    assert main(["scan", str(path)]) == 2
    assert "not a chat history schema this tool knows" in capsys.readouterr().err


@pytest.mark.parametrize("option", [[], ["--session", "demo"]])
def test_scan_names_the_session(option, capsys):
    main(["scan", "--json", str(SAMPLE), *option])
    report = json.loads(capsys.readouterr().out)
    assert [(s["session_id"], s["format"]) for s in report["sessions"]] == [("demo", "agents-sdk")]
