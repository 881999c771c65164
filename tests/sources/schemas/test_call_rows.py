"""A history's writers find a turn's stored calls by place, not by `tool_call_id`: a call without
an id (or sharing one) still gets its repair (`llm` before 0.32: see tests/detect/test_rename_results.py), and a
reply that was only a leaked call, which the repair turns into that call, gets a stored call its
result can answer."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import sqlite_utils
from llm.logs import LogStore

from inspector.cli.main import main
from inspector.sources import open_source
from tests.helpers.llm_cli import FUNCTIONS, run_llm
from tests.helpers.rubyllm import build_rubyllm

ARGS = {"memory_type": "fact", "content": "Likes tea."}
MARKUP = f"<tool_call>\n{json.dumps({'name': 'save_memory', 'arguments': ARGS})}\n</tool_call>"


def _rows(path: Path, sql: str) -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def _clean(path: Path) -> bool:
    return main(["scan", str(path)]) == 0


def _llm_home(tmp_path: Path) -> Path:
    home = tmp_path / "llm"
    home.mkdir()
    (home / "functions.py").write_text(FUNCTIONS)
    return home


def _fork_parts(out: Path) -> list[list]:
    """Each message of the repaired thread, as `llm` reads it: its parts' (type, name, text or arguments)."""
    (fork,) = _rows(out, "SELECT id FROM threads WHERE forked_from IS NOT NULL")
    return [
        [
            (
                type(part).__name__,
                getattr(part, "name", None),
                getattr(part, "text", None) or getattr(part, "arguments", None),
            )
            for part in message.parts
        ]
        for message in LogStore(sqlite_utils.Database(out)).thread_messages(fork[0])
    ]


def test_rubyllm_reply_that_was_only_markup_owns_the_recovered_call(tmp_path, capsys):
    chat = [("user", "Remember that I like tea.", None), ("assistant", MARKUP, None), ("user", "Thanks.", None)]
    source, out = build_rubyllm(tmp_path / "app.db", [chat]), tmp_path / "fixed.db"
    assert main(["fix", str(source), "--accept", "tool-markup", "-o", str(out)]) == 0
    (reply,) = _rows(out, "SELECT id, content FROM messages WHERE role = 'assistant'")
    (call,) = _rows(out, "SELECT id, message_id, name, arguments FROM tool_calls")
    assert reply[1] == "" and call[1:] == (reply[0], "save_memory", json.dumps(ARGS))
    assert _rows(out, "SELECT tool_call_id FROM messages WHERE role = 'tool'") == [(call[0],)]
    assert "tool_calls row" in _rows(out, "SELECT note FROM inspector_fixes")[0][0]
    turns = open_source(out).session("1").turns
    assert [(t.role, [c.name for c in t.tool_calls]) for t in turns][1:3] == [
        ("assistant", ["save_memory"]),
        ("tool", []),
    ]
    assert turns[2].tool_results[0].name == "save_memory"
    assert _clean(out)


def test_llm_fork_reply_that_was_only_markup_becomes_the_call(tmp_path, capsys):
    home = _llm_home(tmp_path)
    run_llm(home, "-m", "echo", json.dumps({"raw": MARKUP}))
    out = tmp_path / "fixed.db"
    assert main(["fix", str(home / "logs.db"), "--accept", "tool-markup", "-o", str(out)]) == 0
    reply, result = _fork_parts(out)[1:]
    assert reply == [("ToolCallPart", "save_memory", ARGS)]  # no empty text part left for an API to reject
    assert [(kind, name) for kind, name, _ in result] == [("ToolResultPart", "save_memory")]
    (fork,) = _rows(out, "SELECT id FROM threads WHERE forked_from IS NOT NULL")
    assert main(["scan", str(out), "--session", fork[0]]) == 0


def test_llm_fork_pairs_calls_without_ids_by_place(tmp_path, capsys):
    home = _llm_home(tmp_path)
    misnamed = {"name": "save_memories", "arguments": ARGS}
    kept = {"name": "save_memory", "arguments": {"memory_type": "core", "content": "Runs."}}
    run_llm(home, "-m", "echo", "--functions", "functions.py", json.dumps({"tool_calls": [misnamed, kept]}))
    with sqlite3.connect(home / "logs.db") as conn:  # as a history moved over from llm before 0.32 may hold them
        conn.execute("UPDATE parts SET payload = json_remove(payload, '$.tool_call_id') WHERE type LIKE 'tool_%'")
    conn.close()
    out = tmp_path / "fixed.db"
    assert main(["fix", str(home / "logs.db"), "--accept", "unknown-tool", "-o", str(out)]) == 1
    calls = [part for message in _fork_parts(out) for part in message if part[0] == "ToolCallPart"]
    assert calls == [("ToolCallPart", "save_memory", ARGS), ("ToolCallPart", "save_memory", kept["arguments"])]
    results = [part[1] for message in _fork_parts(out) for part in message if part[0] == "ToolResultPart"]
    assert results == ["save_memory", "save_memory"]
