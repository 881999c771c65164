"""Writing session files never loses data: no write lands on the input by any name, an existing
output is replaced only with --force (and only a regular file), a backup or an output appears
whole or not at all, each file is flushed before its rename and its folder after, and the output
never lands without its audit (a simulated failure between the two renames, and a real `kill -9`
at each step of the write, the child stopped there first so that the kill lands inside it)."""

from __future__ import annotations

import json
import os
import resource
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.review.review import Review
from inspector.scan.scanner import scan_file
from inspector.sources import open_source
from tests.helpers.samples import SESSIONS
from tests.helpers.tools import SAVE_MEMORY
from tests.helpers.write_steps import LANDINGS, check_durable, record_steps, run_pausing

FAKE = '{success: true, memory_type: "journal", content: "Called my sister"}That took courage.'
MESSAGES = [
    {"role": "user", "content": "Journal this: I called my sister."},
    {"role": "assistant", "content": FAKE, "id": "msg_1"},
]


def _session(path: Path, copies: int = 1) -> Path:
    path.write_text(json.dumps({"messages": MESSAGES * copies, "tools": [SAVE_MEMORY]}, indent=2))
    return path


def _visible(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


def test_no_write_lands_on_the_input_whatever_its_name(tmp_path, capsys):
    source = _session(tmp_path / "out.json.audit.ndjson")  # the audit of out.json would be the input
    before = source.read_bytes()
    assert main(["fix", str(source), "--accept", "all", "-o", str(tmp_path / "out.json")]) == 2
    err = capsys.readouterr().err
    assert "is the input" in err and err.count("\n") == 1
    assert source.read_bytes() == before and _visible(tmp_path) == ["out.json.audit.ndjson"]

    data = _session(tmp_path / "data.json")
    os.link(data, tmp_path / "hard.json")
    (tmp_path / "soft.json").symlink_to(data)
    for name in ("hard.json", "soft.json"):  # the output is the input by another name
        assert main(["fix", str(data), "--accept", "all", "-o", str(tmp_path / name), "--force"]) == 2
        assert "is the input" in capsys.readouterr().err
    os.link(data, tmp_path / "new.json.audit.ndjson")  # the audit would be the input
    assert main(["fix", str(data), "--accept", "all", "-o", str(tmp_path / "new.json"), "--force"]) == 2
    assert "new.json.audit.ndjson: is the input" in capsys.readouterr().err
    (tmp_path / "data.json.audit.ndjson").symlink_to(data)  # in place, the audit would be the input
    assert main(["fix", str(data), "--accept", "all", "--in-place"]) == 2
    assert "is the input" in capsys.readouterr().err
    assert (
        data.read_text() == (tmp_path / "hard.json").read_text()
        and FAKE in json.loads(data.read_text())["messages"][1]["content"]
    )
    assert not (tmp_path / "new.json").exists() and not list(tmp_path.glob("data.json.bak*"))


def test_an_existing_output_is_replaced_only_with_force_and_only_a_regular_file(tmp_path, capsys):
    source = _session(tmp_path / "session.json")
    out = tmp_path / "out.json"
    out.write_text("my notes\n")
    assert main(["fix", str(source), "--accept", "all", "-o", str(out)]) == 2
    assert "exists already" in capsys.readouterr().err and out.read_text() == "my notes\n"
    assert not (tmp_path / "out.json.audit.ndjson").exists()
    assert main(["fix", str(source), "--accept", "all", "-o", str(out), "--force"]) == 0
    assert "That took courage." in out.read_text() and (tmp_path / "out.json.audit.ndjson").exists()

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for force in ([], ["--force"]):
        assert main(["fix", str(source), "--accept", "all", "-o", str(fifo), *force]) == 2
        assert "is not a regular file" in capsys.readouterr().err
        assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    (tmp_path / "dir").mkdir()
    assert main(["fix", str(source), "--accept", "all", "-o", str(tmp_path / "dir"), "--force"]) == 2
    assert "is not a regular file" in capsys.readouterr().err


def test_the_apps_export_replaces_an_existing_file_only_when_told(tmp_path):
    path = tmp_path / "memory.json"
    shutil.copy(SESSIONS / "memory-agent.openai.json", path)
    review = Review.open(open_source(path), scan_file(path))
    review.approve_all(0, "result-prefix")
    taken = tmp_path / "taken.json"
    taken.write_text("NOT-A-SESSION-7731\n")
    with pytest.raises(Exception, match="exists already"):
        review.export(taken)
    assert taken.read_text() == "NOT-A-SESSION-7731\n"
    assert review.export(taken, replace_existing=True).applied > 0 and "NOT-A-SESSION-7731" not in taken.read_text()
    os.link(path, tmp_path / "alias.json")
    with pytest.raises(Exception, match="is the input"):
        review.export(tmp_path / "alias.json", replace_existing=True)


def _landings_failing_at(monkeypatch, names: set[Path], failing: int) -> None:
    """Make the `failing`th rename or link onto one of `names` fail as a full disk would."""
    count = {"n": 0}
    for name in ("replace", "link"):
        real = getattr(os, name)

        def landing(src, dst, *args, real=real, **kwargs):
            if Path(dst) in names:
                count["n"] += 1
                if count["n"] == failing:
                    raise OSError(28, "No space left on device", str(dst))
            return real(src, dst, *args, **kwargs)

        monkeypatch.setattr(os, name, landing)


def test_a_failure_between_the_audit_and_the_output_leaves_neither(tmp_path, capsys, monkeypatch):
    source = _session(tmp_path / "session.json")
    out, audit = tmp_path / "out.json", tmp_path / "out.json.audit.ndjson"
    _landings_failing_at(monkeypatch, {out, audit}, 2)
    assert main(["fix", str(source), "--accept", "all", "-o", str(out)]) == 2
    assert "No space left" in capsys.readouterr().err
    assert _visible(tmp_path) == ["session.json"]  # no output without its audit, no temporary file

    monkeypatch.undo()
    assert main(["fix", str(source), "--accept", "all", "--in-place"]) == 0
    earlier = (tmp_path / "session.json.audit.ndjson").read_text()
    _session(source)  # broken again: a second in-place fix, whose output fails to land
    before = source.read_bytes()
    own = {source, tmp_path / "session.json.audit.ndjson"}
    _landings_failing_at(monkeypatch, own, 2)
    assert main(["fix", str(source), "--accept", "all", "--in-place"]) == 2
    assert source.read_bytes() == before and (tmp_path / "session.json.audit.ndjson").read_text() == earlier
    assert _visible(tmp_path) == ["session.json", "session.json.audit.ndjson", "session.json.bak", "session.json.bak.1"]


def _limited_file_size(limit: int):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def test_a_backup_that_does_not_fit_leaves_nothing(tmp_path):
    source = _session(tmp_path / "session.json", copies=2000)
    before = source.read_bytes()
    done = subprocess.run(
        [sys.executable, "-m", "inspector", "fix", str(source), "--accept", "all", "--in-place"],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=_limited_file_size(len(before) // 2),
    )
    assert done.returncode == 2 and "cannot write the backup" in done.stderr and "nothing was changed" in done.stderr
    assert source.read_bytes() == before and _visible(tmp_path) == ["session.json"]


def _fix_command(directory: Path, in_place: bool) -> list[str]:
    where = ["--in-place"] if in_place else ["-o", str(directory / "out.json")]
    return [sys.executable, "-m", "inspector", "fix", str(directory / "session.json"), "--accept", "all", *where]


def _check_after_kill(directory: Path, in_place: bool, original: bytes, repaired: bytes, fixes: int) -> None:
    """The invariant after a kill at any moment: an output only with its complete audit, every
    file under a real name whole, nothing else but hidden temporary files."""
    out = directory / ("session.json" if in_place else "out.json")
    audit = out.with_name(out.name + ".audit.ndjson")
    names = {p.name for p in directory.iterdir() if not p.name.startswith(".")}
    assert names <= {
        "session.json",
        "out.json",
        "out.json.audit.ndjson",
        "session.json.audit.ndjson",
        "session.json.bak",
    }
    assert all(p.name.endswith(".tmp") for p in directory.iterdir() if p.name.startswith("."))
    if in_place:
        assert out.read_bytes() in (original, repaired)
        if (directory / "session.json.bak").exists():
            assert (directory / "session.json.bak").read_bytes() == original
    if out.exists() and out.read_bytes() == repaired:
        assert audit.exists(), "the output landed without its audit"
    if audit.exists():
        assert len([json.loads(line) for line in audit.read_text().splitlines()]) == fixes
    if not in_place and out.exists():
        assert out.read_bytes() == repaired


def test_each_file_is_flushed_before_its_rename_the_folder_after_and_the_audit_lands_first(tmp_path, monkeypatch):
    source = _session(tmp_path / "session.json")
    steps = record_steps(monkeypatch, tmp_path)
    assert main(["fix", str(source), "--accept", "all", "-o", str(tmp_path / "out.json")]) == 0
    assert check_durable(steps) == ["out.json.audit.ndjson", "out.json"], "\n".join(map(str, steps))
    steps.clear()
    assert main(["fix", str(source), "--accept", "all", "--in-place"]) == 0
    assert check_durable(steps) == ["session.json.bak", "session.json.audit.ndjson", "session.json"], "\n".join(
        map(str, steps)
    )


@pytest.mark.slow  # kills a fix at each step of its write, on its own and in place
@pytest.mark.parametrize("in_place", [False, True], ids=["output", "in-place"])
def test_a_fix_killed_at_any_step_of_its_write_never_leaves_an_output_without_its_audit(tmp_path, in_place):
    reference = tmp_path / "reference"
    reference.mkdir()
    original = _session(reference / "session.json", copies=20).read_bytes()
    steps = run_pausing(reference, 0, _fix_command(reference, in_place)[3:])
    landings = [step for step in steps if step.split()[0] in LANDINGS]
    out = "session.json" if in_place else "out.json"
    assert [step.split()[-1] for step in landings][-2:] == [f"{out}.audit.ndjson", out], "\n".join(steps)
    repaired = (reference / out).read_bytes()
    fixes = len((reference / f"{out}.audit.ndjson").read_text().splitlines())
    states = set()
    for stop in range(1, len(steps) + 1):
        directory = tmp_path / f"step{stop}"
        directory.mkdir()
        (directory / "session.json").write_bytes(original)
        logged = run_pausing(directory, stop, _fix_command(directory, in_place)[3:])
        assert logged[-1] == "paused" and logged[:-1] == steps[:stop], f"the kill did not land at step {stop}"
        _check_after_kill(directory, in_place, original, repaired, fixes)
        landed = directory / out
        states.add(((directory / f"{out}.audit.ndjson").exists(), landed.exists() and landed.read_bytes() == repaired))
    # the kills landed inside the write: before anything landed, between the audit and the output, after both
    assert states == {(False, False), (True, False), (True, True)}
