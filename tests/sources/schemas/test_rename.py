"""The `unknown-tool` rename written back by every SQLite writer that stores calls: RubyLLM's
`tool_calls.name`, `llm` 0.32+'s forked thread, `llm` 0.31's `tool_calls` and Open WebUI's details
tags. Each test fixes a real database, re-opens it and re-scans it clean of `unknown-tool`."""

from __future__ import annotations

import html
import json
import sqlite3

from inspector.cli.main import main
from inspector.sources import open_source
from inspector.support.tools_file import load_tools_file
from tests.helpers.databases import fetch_all, kinds_by_session
from tests.helpers.llm_cli import FUNCTIONS, run_llm
from tests.helpers.rubyllm import MISNAMED_ARGS, MISNAMED_CHAT, build_rubyllm
from tests.helpers.sqlite_histories import build_llm_legacy, build_open_webui
from tests.helpers.tools import tools_file


def test_rubyllm_rename_updates_the_tool_calls_row(tmp_path, capsys):
    source, out = build_rubyllm(tmp_path / "app.db", [MISNAMED_CHAT]), tmp_path / "fixed.db"
    tools = tools_file(tmp_path)
    assert kinds_by_session(source, None, load_tools_file(tools)) == {"1": ["unknown-tool"]}
    assert main(["fix", str(source), "--tools", str(tools), "--accept", "unknown-tool", "-o", str(out)]) == 0
    assert "1 fix applied" in capsys.readouterr().out
    assert fetch_all(out, "SELECT tool_call_id, name, arguments FROM tool_calls") == [
        ("call_tea", "save_memory", json.dumps(MISNAMED_ARGS))
    ]  # same id, same arguments text
    assert kinds_by_session(out, None, load_tools_file(tools)) == {"1": []}
    (result,) = open_source(out).session("1").turns[2].tool_results
    assert (result.call_id, result.name) == ("call_tea", "save_memory")  # the tool message follows its row
    assert fetch_all(out, "SELECT kind, row_id FROM inspector_fixes") == [("unknown-tool", "2")]
    assert fetch_all(source, "SELECT name FROM tool_calls") == [("save_memories",)]  # the input is untouched


def test_llm_rename_is_written_in_the_forked_thread(tmp_path, capsys):
    home = tmp_path / "llm"
    home.mkdir()
    (home / "functions.py").write_text(FUNCTIONS)
    call = {"name": "save_memories", "arguments": MISNAMED_ARGS}  # llm itself answers: no such tool
    run_llm(home, "-m", "echo", "--functions", "functions.py", json.dumps({"tool_calls": [call]}))
    source, out = home / "logs.db", tmp_path / "fixed.db"
    (original,) = kinds_by_session(source)
    assert kinds_by_session(source)[original] == ["unknown-tool", "tool-error"]
    assert main(["fix", str(source), "--accept", "unknown-tool", "-o", str(out)]) == 1
    (fork,) = fetch_all(out, "SELECT id FROM threads WHERE forked_from IS NOT NULL")
    assert kinds_by_session(out) == {original: ["unknown-tool", "tool-error"], fork[0]: ["tool-error"]}
    (renamed,) = open_source(out).session(fork[0]).turns[1].tool_calls
    (was,) = open_source(out).session(original).turns[1].tool_calls
    assert (renamed.id, renamed.name, renamed.arguments) == (was.id, "save_memory", MISNAMED_ARGS)
    assert fetch_all(out, "SELECT tool_name FROM parts WHERE type = 'tool_call' ORDER BY id") == [
        ("save_memories",),
        ("save_memory",),
    ]


def test_llm_before_0_32_rename_updates_its_tool_calls_row(tmp_path, capsys):
    source, out = build_llm_legacy(tmp_path / "logs.db"), tmp_path / "fixed.db"
    with sqlite3.connect(source) as conn:
        conn.execute("UPDATE tool_calls SET name = 'save_memories'")
    conn.close()
    assert "unknown-tool" in kinds_by_session(source)["01conv"]
    assert main(["fix", str(source), "--accept", "unknown-tool", "-o", str(out)]) == 1
    assert "unknown-tool" not in kinds_by_session(out)["01conv"]
    assert fetch_all(out, "SELECT name, arguments, tool_call_id FROM tool_calls") == [
        ("save_memory", '{"memory_type": "fact", "content": "Likes tea."}', "tc1")
    ]


def test_open_webui_rename_rewrites_the_details_tag(tmp_path, capsys):
    source, out = build_open_webui(tmp_path / "webui.db"), tmp_path / "fixed.db"
    with sqlite3.connect(source) as conn:
        chat = conn.execute("SELECT chat FROM chat").fetchone()[0]
        conn.execute("UPDATE chat SET chat = ?", [chat.replace('name=\\"save_memory\\"', 'name=\\"save_memories\\"')])
    conn.close()
    tools = tools_file(tmp_path)
    assert kinds_by_session(source, None, load_tools_file(tools)) == {"c1": ["unknown-tool", "result-prefix"]}
    assert main(["fix", str(source), "--tools", str(tools), "--accept", "unknown-tool", "-o", str(out)]) == 0
    assert kinds_by_session(out, None, load_tools_file(tools)) == {"c1": ["result-prefix"]}
    content = json.loads(fetch_all(out, "SELECT chat FROM chat")[0][0])["history"]["messages"]["a1"]["content"]
    assert 'name="save_memory"' in content and content.startswith("Saving it.\n") and content.endswith("Done.")
    arguments = html.unescape(content.split('arguments="')[1].split('"')[0])
    assert json.loads(json.loads(arguments)) == {"memory_type": "fact", "content": "Likes tea."}  # as it was


def test_the_audit_row_records_the_rename_like_the_jsonl_audit(tmp_path, capsys):
    source, out = build_rubyllm(tmp_path / "app.db", [MISNAMED_CHAT]), tmp_path / "fixed.db"
    tools = tools_file(tmp_path)
    with sqlite3.connect(source) as conn:  # an audit table written before `proposed` and `rename_calls`
        conn.execute(
            'CREATE TABLE inspector_fixes (id INTEGER PRIMARY KEY, applied_at TEXT NOT NULL, "table" TEXT, '
            "row_id TEXT, session_id TEXT, turn INTEGER, kind TEXT NOT NULL, before TEXT, after TEXT, "
            "edited INTEGER NOT NULL, recovered_calls TEXT, note TEXT, executions TEXT)"
        )
    conn.close()
    assert main(["fix", str(source), "--tools", str(tools), "--accept", "unknown-tool", "-o", str(out)]) == 0
    ((renames, proposed),) = fetch_all(out, "SELECT rename_calls, proposed FROM inspector_fixes")
    assert (json.loads(renames), proposed) == ([{"call": 0, "name": "save_memory"}], None)
