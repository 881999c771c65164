"""Integers too long to read (more digits than Python reads as an `int`) in a session file: the
record holding one is reported and skipped, the rest of the file read and repaired, and the digits
written back exactly as they were; never a traceback."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from inspector.cli.main import main
from tests.helpers.samples import SESSIONS, TOOL_SAMPLES
from tests.helpers.timing import cpu_time

HUGE = "9" * 100_000


def _scan(path: Path, capsys) -> tuple[int, dict]:
    code = main(["scan", "--json", str(path)])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, json.loads(captured.out)


def test_a_huge_integer_in_a_json_file_is_reported_and_written_back_as_it_was(tmp_path: Path, capsys):
    text = (SESSIONS / "memory-agent.openai.json").read_text(encoding="utf-8")
    path = tmp_path / "memory.json"
    path.write_text(text.replace('"messages": [', f'"usage": {{"tokens": {HUGE}, "n": -{HUGE}}}, "messages": [', 1))
    code, report = _scan(path, capsys)
    assert code == 1
    (session,) = report["sessions"]
    assert session["findings"]
    assert any("over 4,300 digits" in problem for problem in session["problems"])
    out = tmp_path / "fixed.json"
    main(["fix", str(path), "--accept", "all", "-o", str(out)])
    assert "Traceback" not in capsys.readouterr().err
    fixed = out.read_text(encoding="utf-8")
    assert f'"tokens": {HUGE},' in fixed and f'"n": -{HUGE}\n' in fixed
    assert fixed != path.read_text(encoding="utf-8")  # repaired elsewhere


def test_a_huge_integer_on_a_json_lines_line_costs_that_line_only(tmp_path: Path, capsys):
    lines = (SESSIONS / "finetune.openai.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    odd = lines[1].replace('{"messages": [', f'{{"id": {HUGE}, "messages": [', 1)
    path = tmp_path / "finetune.jsonl"
    path.write_text(lines[0] + odd + lines[2], encoding="utf-8")
    code, report = _scan(path, capsys)
    assert code == 0
    assert [session["session_id"] for session in report["sessions"]] == ["line 1", "line 3"]
    out = tmp_path / "fixed.jsonl"
    main(["fix", str(path), "--accept", "all", "-o", str(out)])
    assert out.read_text(encoding="utf-8").splitlines(keepends=True)[1] == odd


def test_a_long_integer_in_one_call_s_arguments_costs_that_call_s_turn_only(tmp_path: Path, capsys):
    document = json.loads((SESSIONS / "memory-agent.openai.json").read_text(encoding="utf-8"))
    call = next(message for message in document["messages"] if message.get("tool_calls"))["tool_calls"][0]
    call["function"]["arguments"] = '{"content": "x", "importance": ' + "7" * 5000 + "}"
    path = tmp_path / "memory.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    code, report = _scan(path, capsys)
    assert code == 1
    (session,) = report["sessions"]
    assert any("arguments hold a number of over 4,300 digits" in problem for problem in session["problems"])
    assert session["findings"]


def test_a_huge_integer_on_a_claude_code_event_is_reported_and_its_line_kept(tmp_path: Path, capsys):
    lines = (TOOL_SAMPLES / "claude-code.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    lines[3] = lines[3].replace('{"', f'{{"big": {HUGE}, "', 1)
    path = tmp_path / "session.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    code, report = _scan(path, capsys)
    assert code == 1
    (session,) = report["sessions"]
    assert (
        "line 4: invalid JSON (a number of over 4,300 digits, too long to read), kept as it is" in session["problems"]
    )
    out = tmp_path / "fixed.jsonl"
    main(["fix", str(path), "--accept", "all", "-o", str(out)])
    assert lines[3] in out.read_text(encoding="utf-8").splitlines(keepends=True)


def test_arguments_of_many_long_digit_runs_are_looked_at_in_linear_time(tmp_path: Path, capsys):
    runs = '{"a": [' + ("1" * 4300 + ", ") * 300 + "]"  # cut off: not JSON; each run just within the limit
    messages = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": None, "tool_calls": [_call(runs)]},
        {"role": "tool", "tool_call_id": "c1", "content": "ok"},
    ]
    path = tmp_path / "runs.json"
    path.write_text(json.dumps({"messages": messages}), encoding="utf-8")
    began = cpu_time()
    code, report = _scan(path, capsys)
    assert cpu_time() - began < 3
    assert code == 1 and not report["sessions"][0]["problems"]  # not an odd record: malformed arguments


def _call(arguments: str) -> dict:
    return {"id": "c1", "type": "function", "function": {"name": "f", "arguments": arguments}}


def test_a_huge_integer_in_an_eval_archive_s_sample_costs_nothing_else(tmp_path: Path, capsys):
    log = json.loads((TOOL_SAMPLES / "inspect-ai.log.json").read_text(encoding="utf-8"))
    path = tmp_path / "log.eval"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("header.json", json.dumps({key: value for key, value in log.items() if key != "samples"}))
        for sample in log["samples"]:
            text = json.dumps(sample).replace("{", f'{{"tokens": {HUGE}, ', 1)
            archive.writestr(f"samples/{sample['id']}_epoch_{sample['epoch']}.json", text)
    code, report = _scan(path, capsys)
    assert code == 1
    (session,) = report["sessions"]
    assert session["findings"]
    assert any("over 4,300 digits" in problem for problem in session["problems"])
