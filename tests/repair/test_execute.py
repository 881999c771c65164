"""Running recovered calls through the user's own executor: real processes, real session files."""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.model import NOT_EXECUTED, RECOVERED, ToolCall
from inspector.repair.apply import apply_fixes
from inspector.repair.execute import execute_call, execute_findings
from inspector.scan.scanner import scan_file
from inspector.sources import load_sessions
from tests.helpers.samples import SESSIONS
from tests.helpers.scanning import fix_exit_code

CALL = ToolCall(
    "call_inspector_6_0",
    "save_memory",
    {"memory_type": "journal", "content": "Ran 10k"},
    {"memory_type": "journal", "content": "Ran 10k"},
    RECOVERED,
)

# The executor every test runs: it records how it was started and what it read, then answers as
# the test's `MODE` asks. It writes `ran.jsonl` beside itself, so the tests can tell whether it ran.
EXECUTOR = """
import json, sys, time
from pathlib import Path
request = json.loads(sys.stdin.read())
with open(Path(__file__).with_name("ran.jsonl"), "a") as log:
    log.write(json.dumps({"argv": sys.argv[1:], "request": request}) + "\\n")
mode = MODE
if mode == "json":
    print(json.dumps({"success": True, "id": "mem_" + str(request["turn"]), "tool": request["name"]}))
elif mode == "text":
    print("Saved " + request["arguments"]["content"])
elif mode == "fail":
    for number in range(1, 9):
        print("traceback line " + str(number), file=sys.stderr)
    sys.exit(4)
elif mode == "sleep":
    time.sleep(30)
"""


def write_executor(directory: Path, mode: str) -> Path:
    """Write the executor script in `directory`, answering in `mode`; returns its path."""
    script = directory / "exec.py"
    script.write_text(EXECUTOR.replace("MODE", repr(mode)), encoding="utf-8")
    return script


def command_for(script: Path) -> str:
    """The command line the user would give: this Python running the script."""
    return shlex.join([sys.executable, str(script)])


def runs(directory: Path) -> list[dict]:
    """What the executor recorded, one entry per run (none when it never ran)."""
    log = directory / "ran.jsonl"
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def test_json_output_is_the_result_and_the_call_goes_on_stdin_only(tmp_path):
    command = command_for(write_executor(tmp_path, "json"))
    hostile = {"content": "$(touch pwned); `touch pwned`"}
    call = ToolCall(CALL.id, CALL.name, hostile, hostile, RECOVERED)
    execution = execute_call(command, call, "line 2", 6)
    assert execution.ok and execution.exit_status == 0
    assert execution.result.content == {"success": True, "id": "mem_6", "tool": "save_memory"}
    assert execution.result.call_id == CALL.id and not execution.result.is_error
    (run,) = runs(tmp_path)
    assert run == {
        "argv": [],
        "request": {"name": "save_memory", "arguments": hostile, "session_id": "line 2", "turn": 6},
    }
    assert not (tmp_path / "pwned").exists() and not Path("pwned").exists()


def test_plain_text_output_is_kept_as_text(tmp_path):
    execution = execute_call(command_for(write_executor(tmp_path, "text")), CALL, None, 6)
    assert execution.ok
    assert execution.result.content == "Saved Ran 10k"


def test_non_zero_exit_is_an_error_result_with_the_last_lines_of_stderr(tmp_path):
    command = command_for(write_executor(tmp_path, "fail"))
    execution = execute_call(command, CALL, None, 6)
    assert not execution.ok and execution.exit_status == 4
    result = execution.result
    assert result.is_error and result.call_id == CALL.id
    assert result.content["error"] == f"`{command}` exited with status 4"
    assert result.content["stderr"].splitlines() == [f"traceback line {n}" for n in range(4, 9)]
    assert "error: " in execution.describe() and "exited with status 4" in execution.describe()


def test_time_out_stops_the_command_and_is_an_error_result(tmp_path):
    execution = execute_call(command_for(write_executor(tmp_path, "sleep")), CALL, None, 6, timeout=0.5)
    assert not execution.ok and execution.exit_status is None
    assert execution.result.is_error
    assert "did not finish within 0.5 s and was stopped" in execution.result.content["error"]


def test_a_command_that_cannot_start_is_an_error_result(tmp_path):
    missing = execute_call(str(tmp_path / "no-such-executor"), CALL, None, 6)
    assert not missing.ok and missing.exit_status is None and missing.result.is_error
    assert "could not be started" in missing.result.content["error"]
    assert "No such file or directory" in missing.result.content["error"]
    assert NOT_EXECUTED in missing.result.content["error"]

    not_executable = write_executor(tmp_path, "json")
    os.chmod(not_executable, 0o644)
    refused = execute_call(shlex.quote(str(not_executable)), CALL, None, 6)
    assert not refused.ok and "Permission denied" in refused.result.content["error"]
    assert runs(tmp_path) == []


def test_only_recovered_calls_of_the_given_findings_run_and_their_results_are_recorded(tmp_path):
    command = command_for(write_executor(tmp_path, "json"))
    (result,) = scan_file(SESSIONS / "memory-agent.openai.json")
    chosen = [f for f in result.findings if f.turn == 8 or f.turn == 20]  # 20 copies a call that already ran
    executions = list(execute_findings(command, result.session, chosen))
    assert [(e.turn, e.call.id) for e in executions] == [(8, "call_inspector_8_0")]
    repaired, _ = apply_fixes(result.session, chosen, {e.call.id: e.result for e in executions})
    recorded = {r.call_id: r.content for turn in repaired.turns for r in turn.tool_results}
    assert recorded["call_inspector_8_0"] == {"success": True, "id": "mem_8", "tool": "save_memory"}


def fix(tmp_path: Path, sample: str, *options: str) -> tuple[int, Path]:
    """Run `inspector fix` on a bundled sample with every kind accepted, writing into `tmp_path`;
    returns the exit code and the output path."""
    out = tmp_path / ("out-" + sample)
    return main(["fix", str(SESSIONS / sample), "--accept", "all", "-o", str(out), *options]), out


def recorded_results(out: Path) -> dict[str, object]:
    """The results the repaired file records for recovered calls, by call id (parsed when the
    format keeps results as JSON text)."""
    recorded = {}
    for session in load_sessions(out):
        calls = {c.id for turn in session.turns for c in turn.tool_calls if c.id and c.id.startswith("call_inspector")}
        for turn in session.turns:
            for result in turn.tool_results:
                if result.call_id in calls:
                    content = result.content
                    recorded[result.call_id] = json.loads(content) if isinstance(content, str) else content
    return recorded


SAMPLES = [
    "memory-agent.openai.json",
    "support-agent.anthropic.json",
    "travel-agent.gemini.json",
    "quickstart.openai.jsonl",
    "finetune.openai.jsonl",
    "coding-agent.dump.json",
]


@pytest.mark.parametrize("sample", SAMPLES)
def test_every_format_records_what_the_executor_answered(tmp_path, sample, capsys):
    command = command_for(write_executor(tmp_path, "json"))
    assert fix(tmp_path, sample, "--execute", command)[0] == fix_exit_code(SESSIONS / sample)
    ran = runs(tmp_path)
    assert ran and all(run["argv"] == [] for run in ran)
    expected = {run["request"]["name"] for run in ran}
    printed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("execute ")]
    assert len(printed) == len(ran) and all(line.endswith(": ok") for line in printed)
    recorded = recorded_results(tmp_path / ("out-" + sample))
    assert {value["tool"] for value in recorded.values()} == expected
    assert all(value["success"] is True for value in recorded.values())


@pytest.mark.parametrize("sample", SAMPLES)
def test_every_format_records_a_failing_executor_as_a_tool_error(tmp_path, sample, capsys):
    assert fix(tmp_path, sample, "--execute", command_for(write_executor(tmp_path, "fail")))[0] == fix_exit_code(
        SESSIONS / sample
    )
    printed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("execute ")]
    assert printed and all(line.endswith("exited with status 4") for line in printed)
    out = tmp_path / ("out-" + sample)
    errors = [f for r in scan_file(out) for f in r.findings if f.kind == "tool-error"]
    assert len(errors) == len(runs(tmp_path))
    assert all(f.kind != "result-prefix" for r in scan_file(out) for f in r.findings)


def test_fix_execute_end_to_end_on_the_memory_agent(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    write_executor(tmp_path, "json")
    command = f"{shlex.quote(sys.executable)} exec.py"
    source = SESSIONS / "memory-agent.openai.json"
    before = source.read_bytes()
    assert main(["fix", str(source), "--accept", "result-prefix", "--execute", command, "-o", "out.json"]) == 0
    assert source.read_bytes() == before
    printed = capsys.readouterr().out.splitlines()
    assert printed[:5] == [
        "execute save_memory (turn 6): ok",
        "execute save_memory (turn 8): ok",
        "execute save_memory (turn 14): ok",
        "execute save_memory (turn 14): ok",
        "execute save_memory (turn 32): ok",
    ]

    messages = json.loads((tmp_path / "out.json").read_text())["messages"]
    answers = {m["tool_call_id"]: json.loads(m["content"]) for m in messages if m["role"] == "tool"}
    ids = [f"call_inspector_{suffix}" for suffix in ("6_0", "8_0", "14_0", "14_1", "32_0")]
    for call_id in ids:
        turn = int(call_id.split("_")[2])
        assert answers[call_id] == {"success": True, "id": f"mem_{turn}", "tool": "save_memory"}
    assert not any(NOT_EXECUTED in (m.get("content") or "") for m in messages)
    kinds = [run["request"]["arguments"]["memory_type"] for run in runs(tmp_path)]
    assert kinds == ["journal", "journal", "core", "journal", "journal"]

    audit = [json.loads(line) for line in (tmp_path / "out.json.audit.ndjson").read_text().splitlines()]
    executions = [e for entry in audit for e in entry["executions"]]
    assert [e["call_id"] for e in executions] == ids
    assert all(e["command"] == command and e["exit_status"] == 0 and e["ok"] for e in executions)
    assert executions[0]["result"] == {"success": True, "id": "mem_6", "tool": "save_memory"}
    assert [entry["executions"] for entry in audit if entry["turn"] == 20] == [[]]

    assert not [f for f in scan_file(tmp_path / "out.json")[0].findings if f.kind == "result-prefix"]


def recorded_results_text(out: Path) -> list[str]:
    """The text of every result recorded for a recovered call."""
    return [
        m["content"]
        for m in json.loads(out.read_text())["messages"]
        if m["role"] == "tool" and m["tool_call_id"].startswith("call_inspector")
    ]


def test_without_execute_nothing_runs(tmp_path, capsys):
    write_executor(tmp_path, "json")
    code, out = fix(tmp_path, "memory-agent.openai.json")
    assert code == 0
    assert not (tmp_path / "ran.jsonl").exists()
    assert "execute " not in capsys.readouterr().out
    assert set(recorded_results_text(out)) == {NOT_EXECUTED}


@pytest.mark.parametrize(
    "options, message",
    [
        (["--execute", "no-such-executor-anywhere --flag"], "--execute: no-such-executor-anywhere: command not found"),
        (["--execute", "python3 'unclosed"], "--execute: cannot split"),
        (["--execute", "  "], "--execute: the command is empty"),
        (["--execute-timeout", "5"], "--execute-timeout: only applies with --execute CMD"),
        (["--execute", "python3", "--execute-timeout", "0"], "--execute-timeout: 0 is not a positive number"),
    ],
)
def test_bad_execute_options_are_one_line_and_nothing_runs_or_is_written(tmp_path, capsys, options, message):
    write_executor(tmp_path, "json")
    code, out = fix(tmp_path, "memory-agent.openai.json", *options)
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("inspector: error: " + message) and err.count("\n") == 1
    assert not out.exists() and runs(tmp_path) == []
