"""The command line ends at once after a scan of a file, without freeing the session it read one
object at a time, yet says all it has to say: its report whole, its exit code, its errors. A
history read one session at a time is not held: that process ends as Python ends one. Each test
runs the command as a person does, in its own process, with an exit handler that says whether
Python's own ending ran."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from inspector.cli.main import main

SAMPLES = Path(__file__).resolve().parents[2] / "inspector" / "samples"
# The command line's entry point, run after an exit handler is registered: it prints its word only
# when the process ends as Python ends one (its modules torn down, its exit handlers run).
ENTRY = (
    "import atexit, sys\n"
    "atexit.register(lambda: print('TORN DOWN', file=sys.stderr, flush=True))\n"
    "from inspector.cli.main import run\n"
    "run()\n"
)


def _command(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", ENTRY, *arguments], capture_output=True, text=True, timeout=120, check=False
    )


def test_a_scan_of_a_file_ends_at_once_with_its_whole_report_and_exit_code(capsys):
    sample = SAMPLES / "memory-agent.openai.json"
    done = _command("scan", "--json", "--no-cache", str(sample))
    assert main(["scan", "--json", "--no-cache", str(sample)]) == 1  # the same scan, in this process
    assert json.loads(done.stdout) == json.loads(capsys.readouterr().out)
    assert done.returncode == 1
    assert "TORN DOWN" not in done.stderr


def test_the_text_report_through_a_pipe_is_whole(capsys):
    sample = SAMPLES / "coding-agent.dump.json"
    done = _command("scan", "--no-cache", str(sample))
    assert main(["scan", "--no-cache", str(sample)]) == done.returncode == 1
    assert done.stdout == capsys.readouterr().out
    assert done.stdout.count("\n") > 5 and "TORN DOWN" not in done.stderr


def test_a_history_read_a_session_at_a_time_is_not_held():
    done = _command("scan", "--json", "--no-cache", str(SAMPLES / "rails-chat.rubyllm.db"))
    assert done.returncode in (0, 1)
    assert json.loads(done.stdout)["sessions"]
    assert "TORN DOWN" in done.stderr


def test_an_error_ends_the_command_as_before_with_one_line(tmp_path):
    done = _command("scan", str(tmp_path / "missing.json"))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 2  # the error's line, then the handler's word
    assert "no such file" in done.stderr and "TORN DOWN" in done.stderr


def test_a_fix_ends_at_once_once_its_repaired_copy_and_audit_are_written(tmp_path, capsys):
    sample = SAMPLES / "memory-agent.openai.json"
    quick, in_process = tmp_path / "quick.json", tmp_path / "in-process.json"
    done = _command("fix", str(sample), "--accept", "all", "-o", str(quick))
    assert main(["fix", str(sample), "--accept", "all", "-o", str(in_process)]) == done.returncode
    assert quick.read_bytes() == in_process.read_bytes()
    quick_audit, in_process_audit = (
        Path(f"{path}.audit.ndjson").read_text().splitlines() for path in (quick, in_process)
    )
    assert len(quick_audit) == len(in_process_audit) > 0
    assert "TORN DOWN" not in done.stderr
