"""`scan --unknowns`: the record types and keys no reader knows, by format and the version of the
tool that wrote them, over the real tools' files with records of a newer release added, in text
and JSON, with the usual exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.cli.main import main
from tests.helpers.samples import TOOL_SAMPLES


def _lines(name: str) -> list[dict]:
    return [json.loads(line) for line in (TOOL_SAMPLES / name).read_text().splitlines()]


def _write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return path


def _drifted(tmp_path: Path) -> list[Path]:
    """The Claude Code, Codex and Gemini CLI samples, each with records of a newer release added."""
    claude = _lines("claude-code.v2.1.332.jsonl")
    for event in claude:
        if event.get("type") == "assistant":
            event["version"], event["speculativeDraft"] = "2.2.0", {"id": 1}
    claude.append({"type": "mailbox-state", "sessionId": "s", "version": "2.2.0"})
    codex = _lines("codex.rollout.jsonl")
    codex += [
        {"timestamp": "2026-11-28T00:00:00Z", "type": "goal_state", "payload": {}},
        {"timestamp": "2026-11-28T00:00:01Z", "type": "response_item", "payload": {"type": "plan_update"}},
        {"timestamp": "2026-11-28T00:00:02Z", "type": "event_msg", "payload": {}, "\x1b[2Jtrace": 1},
    ]
    gemini = _lines("gemini-cli.session.jsonl")
    gemini.append({"id": "n1", "timestamp": "2026-11-28T00:00:03Z", "type": "plan", "content": "step 1"})
    gemini.append({"id": "n2", "timestamp": "2026-11-28T00:00:04Z", "type": "user", "content": "hi", "mood": "ok"})
    return [
        _write(tmp_path / "claude.jsonl", claude),
        _write(tmp_path / "rollout.jsonl", codex),
        _write(tmp_path / "chat.jsonl", gemini),
    ]


def test_what_no_reader_knows_is_listed_by_format_and_version(tmp_path, capsys):
    paths = _drifted(tmp_path)
    assert main(["scan", *map(str, paths), "--unknowns", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    rows = {
        (r["format"], r["version"], r["record_type"], r["key"]): (r["count"], r["files"]) for r in report["unknowns"]
    }
    assert rows == {
        ("claude-code", "2.2.0", "assistant", "speculativeDraft"): (9, 1),
        ("claude-code", "2.2.0", "mailbox-state", None): (1, 1),
        ("codex", "0.169.0", "goal_state", None): (1, 1),
        ("codex", "0.169.0", "response_item/plan_update", None): (1, 1),
        ("codex", "0.169.0", "event_msg", "\x1b[2Jtrace"): (1, 1),
        ("gemini-cli", None, "plan", None): (1, 1),
        ("gemini-cli", None, "user", "mood"): (1, 1),
    }
    assert (report["files"], report["not_surveyed"], report["errors"]) == (3, {}, [])


def test_the_text_report_groups_by_format_and_version_and_shows_names_inert(tmp_path, capsys):
    paths = _drifted(tmp_path)
    assert main(["scan", *map(str, paths), "--unknowns"]) == 1
    out = capsys.readouterr().out
    assert "\x1b" not in out
    lines = out.splitlines()
    assert lines[:2] == [
        "Records the readers do not know, by format and the version that wrote them (3 files read):",
        "  claude-code 2.2.0",
    ]
    assert lines[2].split() == ["key", "'speculativeDraft'", "of", "'assistant'", "records", "9", "in", "1", "file"]
    assert "  codex 0.169.0" in out and "  gemini-cli (version not stated)" in out
    assert "key '\\x1b[2Jtrace' of 'event_msg' records" in out


def test_the_real_tools_files_hold_nothing_unknown_and_other_formats_are_said_not_looked_into(capsys):
    assert main(["scan", str(TOOL_SAMPLES), "--unknowns"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Every record of the ") and lines[0].endswith(" files read is known to its reader.")
    assert lines[1].startswith("Not looked into: ") and "langchain 1" in lines[1] and "claude-code" not in lines[1]


def test_reading_is_unchanged_the_unknown_records_stay_problems_of_the_scan(tmp_path, capsys):
    claude, codex, _ = _drifted(tmp_path)
    assert main(["scan", str(claude), str(codex), "--json"]) == 1
    problems = [p for s in json.loads(capsys.readouterr().out)["sessions"] for p in s["problems"]]
    assert any("'mailbox-state'" in p for p in problems) and any("'goal_state'" in p for p in problems)


def test_a_file_that_cannot_be_read_is_one_line_and_exit_2(tmp_path, capsys):
    broken = tmp_path / "broken.jsonl"
    broken.write_text("{not json\n")
    good = TOOL_SAMPLES / "codex.rollout.jsonl"
    assert main(["scan", str(broken), str(good), "--unknowns"]) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and "broken.jsonl" in captured.err
    assert captured.out.startswith("Every record of the 1 file read is known")


def test_with_no_session_found_the_one_line_says_so_and_nothing_else(empty_home, capsys):
    assert main(["scan", "--unknowns"]) == 0
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("inspector: no sessions of your own found") and err.count("\n") == 1
