"""The user's executor is run bounded: a time-out stops it and every process it started, an
executor that exits while a background child holds its output is not taken for a hung one, and
what it prints is kept up to a bound, saying how much was cut."""

import os
import sys
import time
from pathlib import Path

from inspector.model import RECOVERED, ToolCall
from inspector.repair.bounded_run import MAX_OUTPUT
from inspector.repair.execute import execute_call

CALL = ToolCall("call_1", "save_memory", '{"content": "x"}', {"content": "x"}, RECOVERED)


def _script(tmp_path: Path, body: str) -> str:
    path = tmp_path / "executor.py"
    path.write_text(body)
    return f"{sys.executable} {path}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie left for init to reap is gone too
        return stat.read().split()[2] != "Z"


def test_a_time_out_stops_the_executor_and_the_processes_it_started(tmp_path):
    pid_file = tmp_path / "child.pid"
    command = _script(
        tmp_path,
        f"""
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
open({str(pid_file)!r}, "w").write(str(child.pid))
time.sleep(60)
""",
    )
    started = time.monotonic()
    result = execute_call(command, CALL, "s1", 3, timeout=1.5)
    assert time.monotonic() - started < 10
    assert (
        not result.ok and "did not finish within 1.5 s and was stopped (with every process it started)" in result.error
    )
    child = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child)


def test_an_executor_that_exits_while_a_background_child_holds_its_output_is_not_a_time_out(tmp_path):
    command = _script(
        tmp_path,
        """
import subprocess, sys
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])  # inherits stdout
print('{"saved": true}')
""",
    )
    started = time.monotonic()
    result = execute_call(command, CALL, "s1", 3, timeout=20)
    assert time.monotonic() - started < 10
    assert result.ok and result.output == {"saved": True}


def test_what_the_executor_prints_is_kept_up_to_a_bound_and_the_cut_is_said(tmp_path):
    command = _script(tmp_path, f"import sys; sys.stdout.write('x' * {MAX_OUTPUT + 5_000_000})")
    result = execute_call(command, CALL, "s1", 3, timeout=60)
    assert result.ok
    assert result.output.startswith("x" * 1000) and len(result.output) < MAX_OUTPUT + 200
    assert result.output.endswith(
        f"[inspector: the executor printed 5,000,000 more bytes, cut after the first {MAX_OUTPUT:,}]"
    )


def test_an_executor_that_never_reads_its_input_still_finishes(tmp_path):
    command = _script(tmp_path, "print('done')")
    big = ToolCall("call_2", "save_memory", None, {"content": "y" * 5_000_000}, RECOVERED)
    result = execute_call(command, big, "s1", 3, timeout=20)
    assert result.ok and result.output == "done"
