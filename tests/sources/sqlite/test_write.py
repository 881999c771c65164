"""Writing repairs back to SQLite histories with `inspector fix`: a new database or in place after
a backup, one transaction, an audit row per fix, valid foreign keys, and a rollback that leaves the
file unchanged when anything fails."""

from __future__ import annotations

import json
import shlex
import sqlite3
import sys
from pathlib import Path

from inspector.cli.main import main
from inspector.review.review import Review
from inspector.scan.scanner import iter_scan
from inspector.sources import open_source
from inspector.sources.sqlite import database as sqlite_db
from tests.helpers.rubyllm import build_rubyllm, dump_database
from tests.helpers.sqlite_histories import build_elia, build_generic, build_llm_legacy, build_open_webui


def _rows(path: Path, sql: str) -> list[tuple]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def _kinds(path: Path, format_name: str | None = None, extra_tools=(), only: str | None = None) -> dict[str, list[str]]:
    results = iter_scan(open_source(path, format_name), extra_tools, only)
    return {r.session.session_id: [f.kind for f in r.findings] for r in results}


def test_rubyllm_fix_writes_a_new_database_with_real_linked_calls(tmp_path, capsys):
    source = build_rubyllm(tmp_path / "app.db")
    before = source.read_bytes()
    out = tmp_path / "fixed.db"
    assert main(["fix", str(source), "--accept", "all", "-o", str(out)]) == 0
    assert "audit: table inspector_fixes in" in capsys.readouterr().out
    assert source.read_bytes() == before
    assert _kinds(out) == {"1": [], "2": [], "3": [], "4": []}
    chat = open_source(out).session("1")
    assert [t.role for t in chat.turns[4:]] == [
        "user",
        "assistant",
        "tool",
        "assistant",
        "user",
        "assistant",
        "tool",
        "assistant",
    ]
    (call,) = chat.turns[5].tool_calls
    (result,) = chat.turns[6].tool_results
    assert call.name == "save_memory" and call.arguments["memory_type"] == "journal"
    assert result.call_id == call.id and "not executed" in result.content
    assert chat.turns[7].text.startswith("You saw right through me.")
    assert _rows(out, "PRAGMA foreign_key_check") == []
    linked = _rows(
        out,
        "SELECT m.role, tc.name, owner.role, owner.chat_id FROM messages m "
        "JOIN tool_calls tc ON tc.id = m.tool_call_id JOIN messages owner ON owner.id = tc.message_id "
        "WHERE m.chat_id = 1 ORDER BY m.id",
    )
    assert linked == [
        ("tool", "save_memory", "assistant", 1),
        ("tool", "whiteboard", "assistant", 1),
        ("tool", "save_memory", "assistant", 1),
    ]
    assert json.loads(_rows(out, "SELECT arguments FROM tool_calls WHERE tool_call_id = 'call_mem_1'")[0][0]) == {
        "memory_type": "fact",
        "content": "Sister's birthday is 4 March.",
    }
    audit = _rows(out, 'SELECT "table", row_id, kind, before, after, edited FROM inspector_fixes ORDER BY id')
    assert [(table, row_id, kind) for table, row_id, kind, *_ in audit] == [
        ("messages", "6", "result-prefix"),
        ("messages", "12", "malformed-arguments"),
        ("messages", "16", "tool-markup"),
    ]
    assert audit[0][3].startswith("{success: true") and audit[0][4].startswith("You saw") and audit[0][5] == 0


def test_in_place_keeps_a_backup_and_never_overwrites_an_older_one(tmp_path, capsys):
    source = build_rubyllm(tmp_path / "app.db")
    original = dump_database(source)
    assert main(["fix", str(source), "--accept", "result-prefix", "--in-place"]) == 1
    assert dump_database(tmp_path / "app.db.bak") == original
    assert _kinds(source)["1"] == []
    assert main(["fix", str(source), "--accept", "tool-markup", "--in-place"]) == 1
    assert (tmp_path / "app.db.bak.1").exists() and dump_database(tmp_path / "app.db.bak") == original
    assert _rows(source, "SELECT kind FROM inspector_fixes ORDER BY id") == [("result-prefix",), ("tool-markup",)]
    assert _kinds(source) == {"1": [], "2": ["malformed-arguments"], "3": [], "4": []}


def test_a_failure_while_writing_rolls_everything_back(tmp_path, capsys):
    source = build_rubyllm(tmp_path / "app.db")
    with sqlite3.connect(source) as conn:  # the app's own trigger refuses the last of the three changes
        conn.execute(
            "CREATE TRIGGER guard BEFORE UPDATE ON messages WHEN NEW.id = 16 "
            "BEGIN SELECT RAISE(ABORT, 'message 16 is archived'); END"
        )
    conn.close()
    before, dump = source.read_bytes(), dump_database(source)
    assert main(["fix", str(source), "--accept", "all", "--in-place", "--allow-triggers"]) == 2
    err = capsys.readouterr().err
    assert "message 16 is archived" in err and "rolled back, the file is unchanged" in err and err.count("\n") == 1
    assert source.read_bytes() == before and dump_database(source) == dump
    assert main(["fix", str(source), "--accept", "all", "-o", str(tmp_path / "new.db"), "--allow-triggers"]) == 2
    assert "new.db was not written" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["app.db", "app.db.bak"]


def test_elia_content_is_updated_and_recovered_calls_are_kept_in_the_audit(tmp_path, capsys):
    source = build_elia(tmp_path / "elia.sqlite")
    out = tmp_path / "fixed.sqlite"
    assert main(["fix", str(source), "--accept", "all", "-o", str(out)]) == 0
    assert _kinds(out) == {"1": [], "2": []}
    assert _rows(out, "SELECT content FROM message WHERE id = 3") == [("Let me look that up.",)]
    ((table, row_id, calls, note),) = _rows(out, 'SELECT "table", row_id, recovered_calls, note FROM inspector_fixes')
    assert (table, row_id) == ("message", "3")
    assert json.loads(calls)[0]["arguments"] == {"query": "tempo run length"}
    assert "no place for tool calls" in note


def test_a_mapped_table_is_fixed_through_its_content_column(tmp_path, capsys):
    source = build_generic(tmp_path / "app.db")
    options = ["--table", "turns", "--map", "role=speaker,content=body,session=convo,order=turn_no"]
    assert main(["fix", str(source), "--accept", "all", "-o", str(tmp_path / "out.db"), *options]) == 0
    assert _rows(tmp_path / "out.db", "SELECT body FROM turns WHERE convo = 'a' AND turn_no = 2") == [
        ("You saw right through me.",)
    ]


def test_llm_before_0_32_and_open_webui_get_their_text_updated(tmp_path, capsys):
    legacy = build_llm_legacy(tmp_path / "logs.db")
    assert main(["fix", str(legacy), "--accept", "all", "--in-place"]) == 0
    assert _rows(legacy, "SELECT response FROM responses WHERE id = '01r3'") == [("You saw right through me.",)]
    webui = build_open_webui(tmp_path / "webui.db")
    assert main(["fix", str(webui), "--accept", "all", "--in-place"]) == 0
    assert _kinds(webui) == {"c1": []}
    chat = json.loads(_rows(webui, "SELECT chat FROM chat")[0][0])
    assert chat["history"]["messages"]["a2"]["content"] == "You saw right through me."
    assert chat["history"]["messages"]["a1"]["content"].count("<details") == 1


def test_a_database_locked_while_fixing_in_place_is_left_unchanged(tmp_path, capsys, monkeypatch):
    source = build_rubyllm(tmp_path / "app.db")
    monkeypatch.setattr(sqlite_db, "BUSY_TIMEOUT", 0.2)
    holder = sqlite3.connect(source, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another program is writing: readers may read, no other writer
    try:
        before = dump_database(source)
        assert main(["fix", str(source), "--accept", "all", "--in-place"]) == 2
        err = capsys.readouterr().err
        assert "locked by another program" in err and "rolled back, the file is unchanged" in err
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert dump_database(source) == before
    assert not (tmp_path / "app.db.bak").exists()  # the lock comes first: no backup of a database it could not lock


def test_keys_broken_before_the_fix_do_not_block_it(tmp_path, capsys):
    source = build_rubyllm(tmp_path / "app.db")
    with sqlite3.connect(source) as conn:  # the app deleted a call row without its answer
        conn.execute("DELETE FROM tool_calls WHERE tool_call_id = 'call_wb_1'")
    conn.close()
    assert _rows(source, "PRAGMA foreign_key_check") == [("messages", 9, "tool_calls", 0)]
    assert main(["fix", str(source), "--accept", "all", "--in-place"]) == 0
    assert _rows(source, "PRAGMA foreign_key_check") == [("messages", 9, "tool_calls", 0)]
    assert _kinds(source)["3"] == []


def test_executed_calls_record_the_executors_answer_and_the_audit_says_so(tmp_path, capsys):
    source = build_rubyllm(tmp_path / "app.db")
    executor = tmp_path / "save.py"
    executor.write_text(
        "import json, sys\ncall = json.load(sys.stdin)\n"
        "print(json.dumps({'saved': call['arguments']['content'], 'chat': call['session_id']}))\n"
    )
    command = shlex.join([sys.executable, str(executor)])
    assert main(["fix", str(source), "--accept", "result-prefix", "--execute", command, "--in-place"]) == 1
    chat = open_source(source).session("1")
    (result,) = chat.turns[6].tool_results
    assert json.loads(result.content) == {"saved": "I lost track of the week and feel scattered.", "chat": "1"}
    ((executions,),) = _rows(source, "SELECT executions FROM inspector_fixes")
    (execution,) = json.loads(executions)
    assert (execution["name"], execution["ok"], execution["exit_status"]) == ("save_memory", True, 0)


def test_an_unanswered_rubyllm_call_gets_a_tool_message_linked_to_its_row(tmp_path, capsys):
    chats = [
        [
            ("user", "Look up tempo runs.", None),
            ("assistant", "", [("call_q", "web_search", '{"query": "tempo run"}')]),
            ("assistant", "I could not find anything.", None),
        ]
    ]
    source = build_rubyllm(tmp_path / "app.db", chats)
    assert _kinds(source) == {"1": ["orphan-call"]}
    assert main(["fix", str(source), "--accept", "orphan-call", "--in-place"]) == 0
    assert _kinds(source) == {"1": []}
    assert _rows(
        source,
        "SELECT m.role, tc.tool_call_id, m.created_at > owner.created_at FROM messages m "
        "JOIN tool_calls tc ON tc.id = m.tool_call_id JOIN messages owner ON owner.id = tc.message_id",
    ) == [("tool", "call_q", 1)]
    assert [t.role for t in open_source(source).session("1").turns] == ["user", "assistant", "tool", "assistant"]


def test_an_export_of_a_history_describes_its_audit_as_the_table_in_the_database(tmp_path):
    source = build_rubyllm(tmp_path / "app.db")
    review = Review.open(open_source(source), list(iter_scan(open_source(source))))
    review.approve(0, 0)
    outcome = review.export(tmp_path / "fixed.db")
    assert outcome.audit == tmp_path / "fixed.db" and outcome.applied == 1
    assert outcome.audit_shown == f"table inspector_fixes in {tmp_path / 'fixed.db'}"


def test_an_unrecognised_database_is_refused_before_any_backup_or_write(tmp_path, capsys):
    source = tmp_path / "notes.db"
    with sqlite3.connect(source) as conn:
        conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    conn.close()
    before = source.read_bytes()
    assert main(["fix", str(source), "--accept", "all", "--in-place"]) == 2
    assert "not a chat history schema this tool knows (tables: notes)" in capsys.readouterr().err
    assert source.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["notes.db"]


def test_open_webui_chat_message_mirror_gets_the_repaired_content(tmp_path, capsys):
    webui = build_open_webui(tmp_path / "webui.db")
    messages = json.loads(_rows(webui, "SELECT chat FROM chat")[0][0])["history"]["messages"]
    with sqlite3.connect(webui) as conn:  # newer Open WebUI: one row per message, content stored as JSON
        conn.execute(
            "CREATE TABLE chat_message (id TEXT PRIMARY KEY, chat_id TEXT NOT NULL REFERENCES chat(id), "
            "user_id TEXT, role TEXT NOT NULL, parent_id TEXT, content JSON, output JSON, model_id TEXT, "
            "done BOOLEAN, created_at BIGINT, updated_at BIGINT)"
        )
        conn.executemany(
            "INSERT INTO chat_message (id, chat_id, user_id, role, parent_id, content, created_at, "
            "updated_at) VALUES (?, 'c1', 'u', ?, ?, ?, 1, 1)",
            [(f"c1-{m['id']}", m["role"], m["parentId"], json.dumps(m["content"])) for m in messages.values()]
            + [("c1-blocks", "assistant", "u2", json.dumps([{"type": "text", "text": "a block"}]))],
        )
    conn.close()
    assert main(["fix", str(webui), "--accept", "all", "-o", str(tmp_path / "out.db")]) == 0
    mirror = dict(_rows(tmp_path / "out.db", "SELECT id, content FROM chat_message"))
    assert json.loads(mirror["c1-a2"]) == "You saw right through me."
    assert json.loads(mirror["c1-a1"]) == messages["a1"]["content"]  # not fixed, not touched
    assert json.loads(mirror["c1-blocks"]) == [{"type": "text", "text": "a block"}]
    assert _rows(tmp_path / "out.db", "SELECT updated_at > 1 FROM chat_message WHERE id = 'c1-a2'") == [(1,)]


def test_a_new_database_in_a_missing_directory_is_one_clear_line(tmp_path, capsys):
    source = build_rubyllm(tmp_path / "app.db")
    assert main(["fix", str(source), "--accept", "all", "-o", str(tmp_path / "nowhere" / "fixed.db")]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'nowhere' / 'fixed.db'}: its directory does not exist; nothing was written" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["app.db"]
