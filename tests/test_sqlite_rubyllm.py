"""RubyLLM's Rails tables: a database built the way a Rails app with `acts_as_chat` keeps it, read
conversation by conversation, and the bundled sample `sessions/rails-chat.rubyllm.db`.

`build_rubyllm` is also used by the other SQLite tests and makes the bundled sample (see
`test_bundled_sample_is_what_the_builder_makes`).
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timedelta
from pathlib import Path

from conftest import SESSIONS

from inspector.cli.main import main
from inspector.scan.scanner import iter_scan
from inspector.sources import open_source

SCHEMA = """
CREATE TABLE chats (id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, model_id varchar,
    created_at datetime(6) NOT NULL, updated_at datetime(6) NOT NULL);
CREATE TABLE tool_calls (id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, message_id integer NOT NULL,
    tool_call_id varchar NOT NULL, name varchar NOT NULL, arguments json DEFAULT '{}',
    created_at datetime(6) NOT NULL, updated_at datetime(6) NOT NULL,
    CONSTRAINT fk_rails_9c8daee481 FOREIGN KEY (message_id) REFERENCES messages (id));
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, chat_id integer NOT NULL,
    role varchar NOT NULL, content text, model_id varchar, input_tokens integer, output_tokens integer,
    tool_call_id integer, created_at datetime(6) NOT NULL, updated_at datetime(6) NOT NULL,
    CONSTRAINT fk_rails_0f670de7ba FOREIGN KEY (chat_id) REFERENCES chats (id),
    CONSTRAINT fk_rails_552873cb52 FOREIGN KEY (tool_call_id) REFERENCES tool_calls (id));
CREATE INDEX index_messages_on_chat_id ON messages (chat_id);
CREATE INDEX index_messages_on_tool_call_id ON messages (tool_call_id);
CREATE UNIQUE INDEX index_tool_calls_on_tool_call_id ON tool_calls (tool_call_id);
CREATE INDEX index_tool_calls_on_message_id ON tool_calls (message_id);
"""
START = datetime(2026, 1, 23, 9, 14, 2)
MODEL = "gemini-2.5-flash"

# Each chat: a list of (role, content, calls) where calls are (call id, name, arguments JSON text)
# on an assistant message, or for a tool message the call id it answers.
SEED_000_CHATS = [
    [
        ("user", "Remember that I prefer morning runs.", None),
        (
            "assistant",
            "",
            [("call_mem_0", "save_memory", '{"memory_type": "core", "content": "Prefers morning runs."}')],
        ),
        ("tool", '{"success": true, "memory_type": "core", "content": "Prefers morning runs."}', "call_mem_0"),
        ("assistant", "Noted: mornings it is.", None),
        ("user", "I lost track of the week again. Can you journal that I feel scattered?", None),
        (
            "assistant",
            '{success: true, memory_type: "journal", content: "I lost track of the week and feel '
            'scattered."}You saw right through me. I have noted how scattered this week felt.',
            None,
        ),
        ("user", "Thanks. What is on my whiteboard?", None),
        ("assistant", "", [("call_wb_1", "whiteboard", '{"action": "get", "board_id": "week"}')]),
        ("tool", '{"board_id": "week", "content": "Dentist Tue; run Thu"}', "call_wb_1"),
        ("assistant", "Your board says: dentist on Tuesday and a run on Thursday.", None),
    ],
    [
        ("user", "Remember that my sister's birthday is on 4 March.", None),
        (
            "assistant",
            "",
            [("call_mem_1", "save_memory", '{"memory_type": "fact", "content": "Sister\'s birthday is 4 March."}}}')],
        ),
        ("tool", '{"success": true, "id": "mem_81"}', "call_mem_1"),
        ("assistant", "Saved: your sister's birthday is on 4 March.", None),
    ],
    [
        ("user", "Add 'book train to Leeds' to the board.", None),
        (
            "assistant",
            '<tool_call>\n{"name": "whiteboard", "arguments": {"action": "update", "board_id": "week", '
            '"content": "Book train to Leeds"}}\n</tool_call>\nDone, it is on the board.',
            None,
        ),
    ],
    [
        ("user", "How long should a tempo run be?", None),
        ("assistant", "Twenty to forty minutes at a comfortably hard pace is a good start.", None),
    ],
]


def build_rubyllm(path: Path, chats: list = SEED_000_CHATS) -> Path:
    """Write a RubyLLM database holding `chats`, linked the way RubyLLM links them."""
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA)
    clock = (f"{START + timedelta(seconds=23 * tick):%Y-%m-%d %H:%M:%S.%f}" for tick in range(10**9))
    for chat in chats:
        stamp = next(clock)
        chat_id = conn.execute(
            "INSERT INTO chats (model_id, created_at, updated_at) VALUES (?, ?, ?)", (MODEL, stamp, stamp)
        ).lastrowid
        call_rows: dict[str, int] = {}
        for role, content, calls in chat:
            stamp = next(clock)
            answers = call_rows.get(calls) if role == "tool" else None
            message_id = conn.execute(
                "INSERT INTO messages (chat_id, role, content, model_id, tool_call_id, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (chat_id, role, content, MODEL if role == "assistant" else None, answers, stamp, stamp),
            ).lastrowid
            for call_id, name, arguments in calls if role == "assistant" and calls else ():
                call_rows[call_id] = conn.execute(
                    "INSERT INTO tool_calls (message_id, tool_call_id, name, arguments, created_at, updated_at) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (message_id, call_id, name, arguments, stamp, stamp),
                ).lastrowid
    conn.commit()
    conn.close()
    return path


def test_each_chat_is_a_session_with_its_calls_and_results(tmp_path):
    path = build_rubyllm(tmp_path / "app.db")
    assert open_source(path).listing() == [("1", 10), ("2", 4), ("3", 2), ("4", 2)]
    chat = open_source(path).session("1")
    assert (chat.format, chat.session_id, len(chat.turns)) == ("rubyllm", "1", 10)
    assert [t.role for t in chat.turns[4:]] == ["user", "assistant", "user", "assistant", "tool", "assistant"]
    (call,) = chat.turns[7].tool_calls
    assert (call.id, call.name, call.arguments) == ("call_wb_1", "whiteboard", {"action": "get", "board_id": "week"})
    (result,) = chat.turns[8].tool_results
    assert (result.call_id, result.name) == ("call_wb_1", "whiteboard")
    assert chat.turns[5].raw == {"id": 6, "model": MODEL}


def test_scan_finds_seed_000s_failure_and_the_other_broken_turns(tmp_path, capsys):
    path = build_rubyllm(tmp_path / "app.db")
    assert main(["scan", "--json", str(path)]) == 1
    report = json.loads(capsys.readouterr().out)
    found = {s["session_id"]: [(f["turn"], f["kind"], f["tool"]) for f in s["findings"]] for s in report["sessions"]}
    assert found == {
        "1": [(5, "result-prefix", "save_memory")],
        "2": [(1, "malformed-arguments", "save_memory")],
        "3": [(1, "tool-markup", "whiteboard")],
        "4": [],
    }
    assert {s["format"] for s in report["sessions"]} == {"rubyllm"}
    assert report["summary"]["turns"] == 18


def test_session_option_picks_one_chat(tmp_path, capsys):
    path = build_rubyllm(tmp_path / "app.db")
    assert main(["scan", "--json", "--session", "3", str(path)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert [s["session_id"] for s in report["sessions"]] == ["3"]


def test_chats_are_read_one_at_a_time(tmp_path):
    path = build_rubyllm(tmp_path / "app.db")
    results = iter_scan(open_source(path))
    first = next(results)
    assert first.session.session_id == "1"
    # the database is still open for the next chat, and nothing else was loaded yet
    assert [r.session.session_id for r in results] == ["2", "3", "4"]


def test_a_directory_lists_database_files(tmp_path, capsys):
    build_rubyllm(tmp_path / "app.sqlite3")
    (tmp_path / "notes.json").write_text(json.dumps({"messages": [{"role": "user", "content": "hi"}]}))
    assert main(["scan", "--json", str(tmp_path)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert sorted({s["path"].rsplit("/", 1)[-1] for s in report["sessions"]}) == ["app.sqlite3", "notes.json"]


def test_bundled_sample_is_what_the_builder_makes(tmp_path):
    built = build_rubyllm(tmp_path / "rails-chat.rubyllm.db")
    assert dump_database(SESSIONS / "rails-chat.rubyllm.db") == dump_database(built)
    assert (SESSIONS / "rails-chat.rubyllm.db").stat().st_size < 100_000


def dump_database(path: Path) -> list[str]:
    """Every statement that would rebuild the database at `path` (its schema and rows)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()
