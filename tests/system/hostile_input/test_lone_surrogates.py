"""Lone surrogates in a session are scanned, shown escaped, kept exactly in JSON and in a repaired
file, and refused in one line where SQLite cannot store them."""

from __future__ import annotations

import json
import shutil
import sqlite3
from contextlib import closing

from inspector.cli.main import main
from tests.helpers.samples import SESSIONS


def _surrogate_session(tmp_path):
    """A session whose text, tool names, ids and arguments hold lone surrogates (JSON escapes)."""
    path = tmp_path / "surrogates.json"
    path.write_text(
        r"""{"messages": [
        {"role": "user", "content": "hi \ud800 there"},
        {"role": "assistant", "content": null, "tool_calls": [{"id": "c\udfff", "type": "function",
            "function": {"name": "f\ud800", "arguments": "{\"q\": \"\\ud800\"}"}}]},
        {"role": "tool", "tool_call_id": "c\udfff", "content": "ok \ud800"},
        {"role": "assistant", "content":
            "<tool_call>{\"name\": \"save\\ud800\", \"arguments\": {\"content\": \"x\\ud800\"}}</tool_call>"}]}
    """,
        encoding="utf-8",
    )
    return path


def test_lone_surrogates_are_scanned_and_shown_escaped(tmp_path, capsysbinary):
    path = _surrogate_session(tmp_path)
    assert main(["scan", str(path)]) == 1
    out = capsysbinary.readouterr().out.decode("utf-8")
    assert "tool-markup  save\\ud800, not executed" in out  # the name held a lone surrogate, shown escaped


def test_lone_surrogates_give_valid_json_holding_them_exactly(tmp_path, capsysbinary):
    path = _surrogate_session(tmp_path)
    assert main(["scan", "--json", str(path)]) == 1
    report = json.loads(capsysbinary.readouterr().out.decode("utf-8"))
    finding = report["sessions"][0]["findings"][-1]
    assert finding["tool"] == "save\ud800"
    assert finding["fix"]["tool_calls"][0]["arguments"] == {"content": "x\ud800"}


def test_a_fix_of_a_session_with_lone_surrogates_writes_a_file_that_reads_back(tmp_path, capsys):
    path = _surrogate_session(tmp_path)
    out = tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 0
    messages = json.loads(out.read_text(encoding="utf-8"))["messages"]
    assert messages[0]["content"] == "hi \ud800 there"
    assert messages[1]["tool_calls"][0]["function"]["name"] == "f\ud800"
    assert json.loads(messages[3]["tool_calls"][0]["function"]["arguments"]) == {"content": "x\ud800"}
    audit = [
        json.loads(line) for line in (tmp_path / "fixed.json.audit.ndjson").read_text(encoding="utf-8").splitlines()
    ]
    assert audit[-1]["tool"] == "save\ud800"
    capsys.readouterr()
    assert main(["scan", str(out)]) == 0


def test_a_sqlite_repair_with_a_lone_surrogate_is_one_line_and_writes_nothing(tmp_path, capsys):
    path = tmp_path / "chat.db"
    shutil.copy(SESSIONS / "rails-chat.rubyllm.db", path)
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute(
            "UPDATE messages SET content = ? WHERE id = 4",
            ['<tool_call>{"name": "save_memory", "arguments": {"content": "x\\ud800"}}</tool_call>'],
        )
    out = tmp_path / "fixed.db"
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "lone surrogate" in err and not out.exists()
