"""`inspector undo` given a session file, not a database: one line naming the copies `fix
--in-place` kept of it, and the file left as it is."""

import shutil
from pathlib import Path

from inspector.cli.main import main
from tests.helpers.samples import TOOL_SAMPLES


def _undo_error(capsys, path: Path) -> str:
    before = path.read_bytes()
    assert main(["undo", str(path)]) == 2
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert out == "" and len(lines) == 1 and lines[0].startswith("inspector: error: ")
    assert path.read_bytes() == before
    return lines[0]


def _fixed_in_place(tmp_path: Path, times: int, capsys) -> Path:
    """The Codex sample fixed in place `times` times, written again before each (a fix with
    nothing to fix writes nothing)."""
    path = tmp_path / "rollout.jsonl"
    for _ in range(times):
        shutil.copy(TOOL_SAMPLES / "codex.rollout.jsonl", path)
        assert main(["fix", str(path), "--accept", "all", "--in-place"]) in (0, 1)
    capsys.readouterr()
    return path


def test_undo_of_a_file_fixed_in_place_names_its_copy_from_before(tmp_path, capsys):
    path = _fixed_in_place(tmp_path, 1, capsys)
    line = _undo_error(capsys, path)
    assert "not a database" in line
    assert f"its copy from before fix --in-place is {path}.bak (copy it back over the file to undo;" in line


def test_undo_of_a_file_fixed_twice_names_the_first_copy_and_the_last(tmp_path, capsys):
    path = _fixed_in_place(tmp_path, 2, capsys)
    line = _undo_error(capsys, path)
    assert f"before the first fix --in-place is {path}.bak, before the last {path}.bak.1" in line


def test_undo_of_a_file_never_fixed_in_place_says_where_a_copy_would_be(tmp_path, capsys):
    path = tmp_path / "session.jsonl"
    shutil.copy(TOOL_SAMPLES / "codex.rollout.jsonl", path)
    line = _undo_error(capsys, path)
    assert line.endswith("keeps its copy from before the fix as FILE.bak, and none is beside this one")
