"""`inspector scan`: the readable report, the JSON contract, exit codes and `python -m inspector`."""

import json
import subprocess
import sys

from inspector.cli.main import main
from tests.helpers.tools import SAVE_MEMORY

REPLY = '{success: true, memory_type: "journal", content: "Ran 5k"}Great run! \x1b[31mred\x1b[0m'
MESSAGES = [
    {"role": "user", "content": "Log my 5k run in the journal"},
    {"role": "assistant", "content": REPLY, "id": "m2"},
]

FINDING_KEYS = {
    "turn",
    "turn_id",
    "role",
    "kind",
    "severity",
    "message",
    "span",
    "tool",
    "arguments",
    "payload",
    "executed",
    "fix",
}


def test_json_report_follows_the_contract(write_session, capsys):
    path = write_session(MESSAGES, [SAVE_MEMORY])
    assert main(["scan", "--json", str(path)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["schema"] == 1
    assert report["summary"] == {"sessions": 1, "turns": 2, "findings": 1, "by_kind": {"result-prefix": 1}}
    (session,) = report["sessions"]
    assert (session["path"], session["session_id"], session["format"], session["turns"]) == (
        str(path),
        None,
        "openai",
        2,
    )
    (finding,) = session["findings"]
    assert finding.keys() >= FINDING_KEYS
    assert finding["turn"] == 1 and finding["turn_id"] == "m2" and finding["role"] == "assistant"
    assert finding["severity"] == "error" and finding["executed"] is False
    start, end = finding["span"]
    assert REPLY[start:end] == '{success: true, memory_type: "journal", content: "Ran 5k"}'
    assert finding["arguments"] == {"memory_type": "journal", "content": "Ran 5k"}
    assert finding["payload"] == {"success": True, "memory_type": "journal", "content": "Ran 5k"}
    assert finding["fix"] == {
        "content": REPLY[end:],
        "tool_calls": [{"name": "save_memory", "arguments": finding["arguments"]}],
        "replace_arguments": [],
        "add_results": [],
        "rename_calls": [],
    }


def test_text_report_previews_object_and_remaining_text_safely(write_session, capsys):
    path = write_session(MESSAGES, [SAVE_MEMORY])
    assert main(["scan", str(path)]) == 1
    out = capsys.readouterr().out
    assert "turn 1 (m2)  error    result-prefix  save_memory, not executed" in out
    assert 'found:  {success: true, memory_type: "journal", content: "Ran 5k"}' in out
    assert "text:   Great run! \\x1b[31mred\\x1b[0m" in out
    assert "\x1b" not in out
    assert "result-prefix    1  (1 not executed, 0 ran)" in out


def test_clean_session_exits_zero(write_session, capsys):
    path = write_session(MESSAGES[:1])
    assert main(["scan", str(path)]) == 0
    assert "0 findings" in capsys.readouterr().out


def test_tools_file_in_mcp_shape_lets_the_tool_be_inferred(write_session, tmp_path, capsys):
    path = write_session(MESSAGES)
    tools = tmp_path / "mcp-tools.json"
    tools.write_text(
        json.dumps({"tools": [{"name": "save_memory", "inputSchema": SAVE_MEMORY["function"]["parameters"]}]})
    )
    main(["scan", "--json", str(path)])
    assert json.loads(capsys.readouterr().out)["sessions"][0]["findings"][0]["tool"] is None
    main(["scan", "--json", str(path), "--tools", str(tools)])
    assert json.loads(capsys.readouterr().out)["sessions"][0]["findings"][0]["tool"] == "save_memory"


def test_python_dash_m_runs_the_same_command_line(write_session):
    path = write_session(MESSAGES, [SAVE_MEMORY])
    done = subprocess.run(
        [sys.executable, "-m", "inspector", "scan", "--json", str(path)], capture_output=True, text=True
    )
    assert done.returncode == 1
    assert json.loads(done.stdout)["summary"]["findings"] == 1


def test_json_report_carries_argument_repairs_and_added_results(write_session, capsys):
    broken = {"id": "c1", "type": "function", "function": {"name": "run_code", "arguments": '{"code": "print(1)"}}}'}}
    path = write_session(
        [{"role": "user", "content": "run it"}, {"role": "assistant", "content": None, "tool_calls": [broken]}]
    )
    main(["scan", "--json", str(path)])
    findings = {f["kind"]: f for f in json.loads(capsys.readouterr().out)["sessions"][0]["findings"]}
    assert findings["malformed-arguments"]["fix"]["replace_arguments"] == [
        {"call": 0, "arguments": {"code": "print(1)"}}
    ]
    (added,) = findings["orphan-call"]["fix"]["add_results"]
    assert added["call_id"] == "c1" and added["is_error"] is True
