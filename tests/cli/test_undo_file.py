"""`inspector undo FILE` on a session file fixed in place (the Claude Code and Codex files the real
tools wrote): each `fix --in-place` is undone in turn, the last first, while the file is exactly as
that fix wrote it; the audit keeps every fix and records every undo; anything else is one line,
exit 2, and the file left as it is."""

import hashlib
import json
import shutil
import time
from pathlib import Path

import pytest

from inspector.cli.main import main
from tests.helpers.samples import TOOL_SAMPLES

CLAUDE_CODE = TOOL_SAMPLES / "claude-code.jsonl"
CODEX = TOOL_SAMPLES / "codex.rollout.jsonl"


def _undo_error(capsys, path: Path) -> str:
    """The one error line `undo` gives for `path`, which it leaves as it was, no backup added."""
    before, backups = path.read_bytes(), sorted(path.parent.glob("*.bak*"))
    assert main(["undo", str(path)]) == 2
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert out == "" and len(lines) == 1 and lines[0].startswith("inspector: error: ")
    assert path.read_bytes() == before and sorted(path.parent.glob("*.bak*")) == backups
    return lines[0]


def _fix_in_place(path: Path, kinds: str, capsys) -> bytes:
    """Fix `path` in place, accepting `kinds`; the file as the fix wrote it."""
    assert main(["fix", str(path), "--accept", kinds, "--in-place"]) in (0, 1)
    capsys.readouterr()
    return path.read_bytes()


def _audit(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.with_name(path.name + ".audit.ndjson").read_text().splitlines()]


def test_fixes_in_place_one_after_another_keep_each_one_s_audit(tmp_path, capsys):
    path = Path(shutil.copy(CLAUDE_CODE, tmp_path / "5e55a0f1.jsonl"))
    assert main(["fix", str(path), "--accept", "result-prefix", "--in-place"]) == 1
    assert f"backup: {path}.bak (inspector undo {path} undoes this fix)\n" in capsys.readouterr().out
    first = path.read_bytes()
    second = _fix_in_place(path, "tool-markup", capsys)
    audit = _audit(path)
    assert [entry["kind"] for entry in audit] == ["result-prefix", "tool-markup"]  # the first is still there
    assert [entry["in_place"]["backup"] for entry in audit] == ["5e55a0f1.jsonl.bak", "5e55a0f1.jsonl.bak.1"]
    assert [entry["in_place"]["written_sha256"] for entry in audit] == [
        hashlib.sha256(first).hexdigest(),
        hashlib.sha256(second).hexdigest(),
    ]


def test_undo_puts_back_each_fix_in_place_the_last_first(tmp_path, capsys):
    path = Path(shutil.copy(CLAUDE_CODE, tmp_path / "5e55a0f1.jsonl"))
    original = path.read_bytes()
    first = _fix_in_place(path, "result-prefix", capsys)
    second = _fix_in_place(path, "tool-markup,malformed-arguments", capsys)

    assert main(["undo", str(path)]) == 0
    said = capsys.readouterr().out.splitlines()
    assert said[0].startswith(f"{path}: undid the fix --in-place of ") and said[0].endswith(
        f"(3 fixes): put back {path}.bak.1, its copy from before"
    )
    assert said[1:] == [
        f"kept: {path}.bak.2 (as that fix wrote it)",
        f"audit: the undo is recorded in {path}.audit.ndjson",
    ]
    assert path.read_bytes() == first and Path(f"{path}.bak.2").read_bytes() == second

    assert main(["undo", str(path)]) == 0
    assert "(1 fix): put back" in capsys.readouterr().out
    assert path.read_bytes() == original and Path(f"{path}.bak.3").read_bytes() == first

    line = _undo_error(capsys, path)
    assert line.endswith("every fix --in-place its audit records is undone already: nothing was changed")
    undos = [entry for entry in _audit(path) if entry["kind"] == "undo"]
    assert [(entry["restored"], entry["kept"], entry["fixes"]) for entry in undos] == [
        ("5e55a0f1.jsonl.bak.1", "5e55a0f1.jsonl.bak.2", 3),
        ("5e55a0f1.jsonl.bak", "5e55a0f1.jsonl.bak.3", 1),
    ]


def test_a_fix_after_an_undo_is_undone_in_its_turn(tmp_path, capsys):
    path = Path(shutil.copy(CODEX, tmp_path / "rollout.jsonl"))
    original = path.read_bytes()
    _fix_in_place(path, "all", capsys)
    assert main(["undo", str(path)]) == 0
    fixed_again = _fix_in_place(path, "result-prefix", capsys)
    assert fixed_again != original
    assert main(["undo", str(path)]) == 0
    capsys.readouterr()
    assert path.read_bytes() == original


def test_undo_refuses_a_file_its_agent_wrote_since_the_fix(tmp_path, capsys):
    path = Path(shutil.copy(CLAUDE_CODE, tmp_path / "5e55a0f1.jsonl"))
    _fix_in_place(path, "all", capsys)
    with path.open("a", encoding="utf-8") as session:  # the agent goes on: one more event
        session.write(json.dumps({"type": "summary", "summary": "Went on", "leafUuid": "x"}) + "\n")
    line = _undo_error(capsys, path)
    assert "changed since the fix --in-place of " in line and "(its agent may have added turns)" in line
    assert line.endswith(f"its copy from before that fix is {path}.bak")


def test_undo_refuses_when_the_copy_from_before_the_fix_is_gone(tmp_path, capsys):
    path = Path(shutil.copy(CODEX, tmp_path / "rollout.jsonl"))
    _fix_in_place(path, "all", capsys)
    Path(f"{path}.bak").unlink()
    line = _undo_error(capsys, path)
    applied_at = _audit(path)[0]["applied_at"]
    assert line.endswith(
        f"its copy from before the fix --in-place of {applied_at}, {path}.bak, is not there: nothing was changed"
    )


@pytest.mark.parametrize("option", [["--fix", "1"], ["--since", "2026-01-01"]])
def test_a_session_file_is_undone_a_whole_fix_at_a_time(tmp_path, capsys, option):
    path = Path(shutil.copy(CODEX, tmp_path / "rollout.jsonl"))
    _fix_in_place(path, "all", capsys)
    before = path.read_bytes()
    assert main(["undo", str(path), *option]) == 2
    assert "undone a whole fix --in-place at a time, the last first" in capsys.readouterr().err
    assert path.read_bytes() == before


def test_an_audit_line_that_is_not_an_entry_is_named(tmp_path, capsys):
    path = Path(shutil.copy(CODEX, tmp_path / "rollout.jsonl"))
    _fix_in_place(path, "all", capsys)
    with open(f"{path}.audit.ndjson", "a", encoding="utf-8") as audit:
        audit.write("{cut\n")
    line = _undo_error(capsys, path)
    assert line.endswith(f"{path}.audit.ndjson: line 5 is not an audit entry; nothing was changed")


def test_a_file_fixed_by_a_version_that_recorded_no_write_names_its_copies(tmp_path, capsys):
    path = Path(shutil.copy(CODEX, tmp_path / "rollout.jsonl"))
    _fix_in_place(path, "all", capsys)
    shutil.copy(CODEX, path)
    _fix_in_place(path, "all", capsys)
    audit = Path(f"{path}.audit.ndjson")
    entries = [{key: value for key, value in entry.items() if key != "in_place"} for entry in _audit(path)]
    audit.write_text("".join(json.dumps(entry) + "\n" for entry in entries), encoding="utf-8")
    line = _undo_error(capsys, path)
    assert line.endswith(
        f"no fix --in-place of it is recorded to undo: its copy from before the first fix --in-place is {path}.bak, "
        f"before the last {path}.bak.1 (copy one back over the file to undo; turns added since are not in it)"
    )


def test_undo_of_a_file_never_fixed_in_place_says_where_a_copy_would_be(tmp_path, capsys):
    path = Path(shutil.copy(CODEX, tmp_path / "session.jsonl"))
    line = _undo_error(capsys, path)
    assert line.endswith("keeps its copy from before the fix as FILE.bak, and none is beside this one")


def test_the_audit_given_for_the_file_names_the_command_that_undoes_it(tmp_path, capsys):
    path = Path(shutil.copy(CODEX, tmp_path / "rollout.jsonl"))
    _fix_in_place(path, "all", capsys)
    line = _undo_error(capsys, Path(f"{path}.audit.ndjson"))
    assert line.endswith(f"{path}.audit.ndjson: the audit of {path}, which undo puts back: inspector undo {path}")


def test_a_copy_replaced_under_the_name_the_audit_gives_is_refused(tmp_path, capsys):
    path = Path(shutil.copy(CODEX, tmp_path / "rollout.jsonl"))
    first = _fix_in_place(path, "result-prefix", capsys)
    Path(f"{path}.bak").rename(tmp_path / "moved-away.bak")  # the person moves the copy away
    time.sleep(1.1)  # (a write is its entries' backup and time, to the second)
    _fix_in_place(path, "tool-markup", capsys)  # its copy takes the free name: the file as the first fix wrote it
    assert main(["undo", str(path)]) == 0
    capsys.readouterr()
    assert path.read_bytes() == first
    line = _undo_error(capsys, path)
    applied_at = _audit(path)[0]["applied_at"]
    assert line.endswith(
        f"{path}.bak, named as its copy from before the fix --in-place of {applied_at}, holds the file as it is now: "
        "that copy is gone, and nothing was changed"
    )
