"""A fine-tuning JSON Lines file (one conversation per line) with a line that cannot be read:
the line is skipped, written back as it was, and reported, in scan's text and JSON output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.cli.main import main
from tests.helpers.samples import SESSIONS

UNREADABLE = {
    "not JSON": ("{not json", "invalid JSON (Expecting property name enclosed in double quotes at column 2)"),
    "a number too long": ('{"messages": [], "n": ' + "9" * 5000 + "}", "invalid JSON (a number of over 4,300 digits"),
}


def _with_line_three(tmp_path: Path, line: str) -> Path:
    """The fine-tuning sample with `line` put in as its third line."""
    lines = (SESSIONS / "finetune.openai.jsonl").read_text(encoding="utf-8").splitlines()
    path = tmp_path / "finetune.jsonl"
    path.write_text("\n".join([*lines[:2], line, *lines[2:]]) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("case", UNREADABLE)
def test_scan_reports_the_unreadable_line(case: str, tmp_path: Path, capsys):
    line, why = UNREADABLE[case]
    path = _with_line_three(tmp_path, line)
    assert main(["scan", str(path)]) == 1
    problems = [text.strip() for text in capsys.readouterr().out.splitlines() if "problem:" in text]
    assert len(problems) == 1
    assert problems[0].startswith(f"problem: line 3: {why}") and problems[0].endswith("skipped, kept as written")

    assert main(["scan", "--json", str(path)]) == 1
    sessions = json.loads(capsys.readouterr().out)["sessions"]
    assert [session["session_id"] for session in sessions] == ["line 1", "line 2", "line 4"]
    reported = [problem for session in sessions for problem in session["problems"]]
    assert len(reported) == 1 and reported[0].startswith(f"line 3: {why}")


def test_fix_writes_the_unreadable_line_back_as_it_was(tmp_path: Path, capsys):
    line, _ = UNREADABLE["not JSON"]
    path = _with_line_three(tmp_path, line)
    out = tmp_path / "fixed.jsonl"
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8").splitlines()[2] == line
