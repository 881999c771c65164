"""Benchmark: the scan's own worker pool (`inspector.scan.parallel`) against the standard library's
`concurrent.futures.ProcessPoolExecutor` doing the same job, and against Spark on many small files.

Run by hand from anywhere (pytest does not collect it; Spark's row needs `inspector[spark]` and Java):

    python tests/benchmarks/bench_pool.py [--messages 200000] [--files 400] [--runs 2] [--keep]

Child processes write three inputs: a RubyLLM history of MESSAGES messages (as `bench_sqlite.py`
writes it: the pool splits such a history into one range of conversations per process), the
MESSAGES-message OpenAI session of `bench_scan.py` (one session: nothing for any pool to split),
and FILES small session files of about 100 messages (as `bench_spark.py` writes them: `scan` reads a
directory's files one after the other in one process, whatever `--jobs` says). Then, `--runs`
times each, interleaved and each in its own process, it measures:

- the history: `scan --json --jobs 1`, `--jobs 2` with the pool, and `--jobs 2` with the pool's
  `_in_workers` replaced by a `ProcessPoolExecutor` of the same processes (`EXECUTOR_RANGES`);
- the session file: `scan --json --jobs 1` and `--jobs 2`;
- the small files: `scan --json DIR`, a `ProcessPoolExecutor` of 2 processes scanning the files
  (`EXECUTOR_FILES`), and `scan --json --engine spark --spark-master local[2] DIR`;

and prints each one's best and worst wall time and whether its report is the one-process one.
Last, it kills a `--jobs 2` scan of the history while its worker waits to send its answer (more
than a pipe holds), once with the pool and once with the executor, and says whether the worker
ends or is left waiting. It exits 0 whatever the numbers (a report, not a test).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[1])]  # the scripts beside it, and the tests' helpers
import bench_runner

SMALL_FILE = 100  # messages in each of the small files, about

# the pool's `_in_workers` done by a ProcessPoolExecutor: this process scans the first range, as the pool's does
IN_EXECUTOR = """
from concurrent.futures import ProcessPoolExecutor
from itertools import chain
from inspector.errors import InspectorError
from inspector.scan import parallel

def in_executor(request, ranges):
    with ProcessPoolExecutor(len(ranges) - 1, mp_context=parallel._context()) as pool:
        answers = [pool.submit(parallel.scan_range, request, start, count) for start, count in ranges[1:]]
        for summaries, error in chain([parallel.scan_range(request, *ranges[0])], (a.result() for a in answers)):
            yield from summaries
            if error is not None:
                raise InspectorError(error)

parallel._in_workers = in_executor
"""
EXECUTOR_RANGES = (
    IN_EXECUTOR
    + """
import sys
from inspector.cli.main import main
raise SystemExit(main(sys.argv[1:]))
"""
)
# a directory's files scanned by a ProcessPoolExecutor, the report written as `scan --json` writes it
EXECUTOR_FILES = """
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from inspector.errors import InspectorError
from inspector.report.json_report import build_report, encode_json
from inspector.scan.parallel import ScanRequest, scan_summaries
from inspector.sources import session_files

def scanned(path):
    try:
        return list(scan_summaries(ScanRequest(path), jobs=1)), None
    except InspectorError as error:
        return [], str(error)

with ProcessPoolExecutor(2) as pool:
    done = list(pool.map(scanned, session_files(Path(sys.argv[1])), chunksize=8))
sys.stdout.write(encode_json(build_report([s for found, _ in done for s in found], [e for _, e in done if e])) + "\\n")
"""
# the scan killed while its worker waits to send its answer (tests/scan/test_parallel.py asks the pool's worker to end)
KILLED_SCAN = """
import multiprocessing, sys
from pathlib import Path
from inspector.scan import parallel
summaries = parallel.scan_summaries(parallel.ScanRequest(Path(sys.argv[1])), jobs=2)
next(summaries)  # this process has scanned its half; the worker waits for it to read its answer
(worker,) = multiprocessing.active_children()
print(worker.pid, flush=True)
sys.stdin.read()  # until killed
"""


def generate(folder: Path, messages: int, files: int) -> None:
    """Write the history, the session file and the small files into `folder` (in a child process)."""
    import bench_scan
    import bench_spark
    import bench_sqlite

    folder.mkdir(parents=True, exist_ok=True)
    bench_sqlite.generate(folder / "history.db", messages)
    bench_scan.generate(folder / "session.openai.json", messages)
    bench_spark.generate(folder / "small", files, SMALL_FILE)


def _commands(folder: Path) -> dict[str, dict[str, list[str]]]:
    python, scan = sys.executable, [sys.executable, "-m", "inspector", "scan", "--json", "--no-cache"]
    history, session, small = (str(folder / name) for name in ("history.db", "session.openai.json", "small"))
    return {
        "RubyLLM history": {
            "--jobs 1": scan + ["--jobs", "1", history],
            "pool, --jobs 2": scan + ["--jobs", "2", history],
            "executor, 2": [python, "-c", EXECUTOR_RANGES, "scan", "--json", "--no-cache", "--jobs", "2", history],
        },
        "one session file": {"--jobs 1": scan + ["--jobs", "1", session], "--jobs 2": scan + ["--jobs", "2", session]},
        "small files": {
            "one process": scan + [small],
            "executor, 2": [python, "-c", EXECUTOR_FILES, small],
            "spark local[2]": scan + ["--engine", "spark", "--spark-master", "local[2]", small],
        },
    }


def report(folder: Path, runs: int, messages: int, files: int) -> None:
    """Measure every command on the inputs in `folder` and print the figures."""
    for input_name, commands in _commands(folder).items():
        measured: dict[str, list[float]] = {name: [] for name in commands}
        outputs: dict[str, bytes] = {}
        for _ in range(runs):
            for name, command in commands.items():
                with tempfile.TemporaryFile() as output:
                    measured[name].append(bench_runner.measure(command, (0, 1), output)[0])
                    output.seek(0)
                    outputs[name] = output.read()
        first = next(iter(outputs.values()))
        sessions = json.loads(first)["summary"]["sessions"]
        size = {
            "RubyLLM history": f"{messages:,} messages",
            "one session file": f"{messages:,} messages",
            "small files": f"{files:,} files of about {SMALL_FILE} messages",
        }[input_name]
        print(f"\n{input_name} ({size}, {sessions:,} sessions){'':4}{'best s':>8}{'worst s':>9}   (of {runs})")
        for name, seconds in measured.items():
            same = "same report" if outputs[name] == first else "REPORT DIFFERS"
            print(f"  {name:38}{min(seconds):>8.2f}{max(seconds):>9.2f}   {same}")


def worker_left_behind(history: Path, how: str) -> bool:
    """Whether the worker of a scan of `history` (`how`: "pool" or "executor") still runs 10 s after
    the scan was killed while the worker waited to send its answer; a worker left is killed."""
    script = (IN_EXECUTOR if how == "executor" else "") + KILLED_SCAN
    scan = subprocess.Popen(
        [sys.executable, "-c", script, str(history)],
        cwd=bench_runner.ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    worker = int(scan.stdout.readline())
    scan.kill()
    scan.wait()
    deadline = time.monotonic() + 10
    while _running(worker) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = _running(worker)
    if left:
        os.kill(worker, signal.SIGKILL)
    return left


def _running(pid: int) -> bool:
    """Whether process `pid` runs (a zombie nobody reaps has ended); Linux's /proc says."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except OSError:
        return False


def main() -> None:
    parser = bench_runner.arguments(
        __doc__,
        "--messages",
        200_000,
        "messages in the history and in the session file",
        keep_help="keep the generated inputs and print where they are",
    )
    parser.add_argument("--files", type=int, default=400, help="small session files")
    parser.set_defaults(runs=2)
    options = parser.parse_args()
    if options.generate_only:
        generate(Path(options.generate_only), options.size, options.files)
        return
    folder = Path(tempfile.mkdtemp(prefix="inspector-bench-")) / "inputs"
    try:  # written by a child process, as the other benchmarks' files are
        subprocess.run(
            [
                sys.executable,
                __file__,
                "--messages",
                str(options.size),
                "--files",
                str(options.files),
                "--generate-only",
                str(folder),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        report(folder, options.runs, options.size, options.files)
        print(
            "\nthe scan killed while its worker waits to send its answer: the worker "
            + ", ".join(
                f"of the {how} {'is LEFT RUNNING' if worker_left_behind(folder / 'history.db', how) else 'ends'}"
                for how in ("pool", "executor")
            )
        )
    finally:
        if options.keep:
            print(f"kept {folder}")
        else:
            shutil.rmtree(folder.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
