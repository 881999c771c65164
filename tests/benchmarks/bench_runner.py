"""What the benchmarks share: generating a file in a child process, measuring commands, printing the figures.

Not a benchmark itself: the `bench_*.py` scripts import it (each adds its folder to `sys.path`), and
each keeps only what is its own: how it writes its file, its baseline command, its targets and the
problems it plants. A benchmark built on it:

- `arguments` gives its command line (the size option, `--runs`, `--keep`, the hidden
  `--generate-only PATH`) and `run` is its `main`: a child process writes the file (so the
  measuring process stays small: on Linux a child's `ru_maxrss` starts from its parent's size) and
  prints the problems planted as JSON, then the benchmark's own report runs on it;
- `compare` runs the baseline and `python -m inspector scan --json FILE` interleaved `--runs`
  times after a warm-up run, each in its own process (`measure`: wall time, CPU time and the
  child's own peak memory, its compiled modules cached as an installed copy's are),
  prints the best and worst, the ratios against the targets, and the findings reported against the
  problems planted. Its parts (`interleave`, `print_table`, `print_pair_ratios`, `print_targets`,
  `findings`, `print_findings`, `print_fix`, `fix_commands`, `print_fix_target`) serve the
  benchmarks whose table differs.

Importing it loads nothing of the inspector: the measuring process must stay small.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

TIME_TARGET, MEMORY_TARGET, RUNS = 3.0, 2.5, 3
FIX_TARGET = 1.3  # `fix --accept all -o` against reading and writing the file with `json`
ROOT = Path(__file__).resolve().parents[2]
SCAN = "scan --json"
WORDS = [
    "the",
    "a",
    "my",
    "your",
    "we",
    "it",
    "this",
    "that",
    "today",
    "tomorrow",
    "week",
    "run",
    "journal",
    "board",
    "plan",
    "memory",
    "note",
    "sister",
    "walk",
    "canal",
    "dentist",
    "interval",
    "coffee",
    "sleep",
    "tired",
    "proud",
    "happy",
    "anxious",
    "bug",
    "template",
    "email",
    "deploy",
    "test",
    "meeting",
    "garden",
    "birthday",
    "train",
    "ticket",
    "Leeds",
    "Lisbon",
    "Maya",
    "Sam",
    "really",
    "maybe",
    "just",
    "still",
    "again",
    "already",
    "went",
    "felt",
    "made",
    "fixed",
    "wrote",
    "moved",
    "called",
    "booked",
    "saved",
    "missed",
    "finished",
    "started",
    "tried",
    "wanted",
    "because",
    "but",
    "and",
    "so",
    "then",
    "later",
    "before",
    "after",
    "while",
    "about",
    "with",
    "without",
    "from",
    "into",
    "over",
    "naïve",
    "café",
]

Run = tuple[float, float, float]  # wall seconds, CPU seconds, peak MB


def word_pool(rng: random.Random, endings: str = ".!?", size: int = 4000) -> list[str]:
    """`size` sentences of 6 to 22 of `WORDS`, each ending in one of `endings` (a single ending draws
    nothing from `rng`, so each benchmark's file stays the same as before this module)."""
    return [
        " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 22))).capitalize()
        + (rng.choice(endings) if len(endings) > 1 else endings)
        for _ in range(size)
    ]


def peak_megabytes(usage) -> float:
    """The peak RSS in MB of a child's resource usage (`ru_maxrss` is in KB on Linux, bytes on macOS)."""
    return usage.ru_maxrss / (1024 * 1024 if sys.platform == "darwin" else 1024)


def child_environment() -> dict[str, str]:
    """The environment the measured commands run in: this one, but with Python's compiled modules
    kept in a cache folder of this process's own (outside the repository) even where the machine
    says not to write them (`PYTHONDONTWRITEBYTECODE`, set on some CI machines), so that every run
    after the first loads them as an installed copy does, rather than compiling 130 modules each
    time (half the import time). `interleave` makes that first run and does not count it. What a
    command keeps in its state folder goes to a temporary one, unless the caller chose one."""
    environment = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    environment["PYTHONPYCACHEPREFIX"] = _BYTECODE_CACHE
    environment.setdefault("XDG_STATE_HOME", _STATE)  # what a command keeps (the search index) stays out of the home
    return environment


_BYTECODE_CACHE = tempfile.mkdtemp(prefix="inspector-bench-pycache-")
_STATE = tempfile.mkdtemp(prefix="inspector-bench-state-")
atexit.register(shutil.rmtree, _BYTECODE_CACHE, ignore_errors=True)
atexit.register(shutil.rmtree, _STATE, ignore_errors=True)


def measure(command: list[str], allowed: tuple[int, ...], output: IO[bytes] | None = None) -> Run:
    """Run `command` from the repository's root (in `child_environment`) with stdout sent to `output`
    (a binary file) or discarded; return wall seconds, CPU seconds (user and system) and peak RSS in
    MB. Exits when its exit code is not in `allowed` (a crash), showing what it wrote to stderr."""
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        process = subprocess.Popen(
            command, stdout=output or subprocess.DEVNULL, stderr=errors, cwd=ROOT, env=child_environment()
        )
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - start
        process.returncode = code = os.waitstatus_to_exitcode(status)
        if code not in allowed:
            errors.seek(0)
            sys.exit(f"{' '.join(command[1:4])} ... exited {code}:\n{errors.read().decode('utf-8', 'replace')}")
    return elapsed, usage.ru_utime + usage.ru_stime, peak_megabytes(usage)


def arguments(
    doc: str, size: str, default: int, size_help: str, keep_help: str = "keep the generated file and print its path"
) -> argparse.ArgumentParser:
    """The command line every generating benchmark shares, described by the first line of `doc`: the
    size option `size` (e.g. "--messages", read as `options.size`), `--keep`, `--runs` and the hidden
    `--generate-only PATH`; the caller adds its own options and hands the parser to `run`."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument(size, dest="size", metavar=size[2:].upper(), type=int, default=default, help=size_help)
    parser.add_argument("--keep", action="store_true", help=keep_help)
    parser.add_argument("--runs", type=int, default=RUNS, help="interleaved runs of each command (best is compared)")
    parser.add_argument("--generate-only", metavar="PATH", help=argparse.SUPPRESS)
    parser.set_defaults(size_option=size)
    return parser


def run(
    parser: argparse.ArgumentParser,
    script: str,
    generate: Callable[[Path, int], dict],
    name: str,
    report: Callable[[argparse.Namespace, Path, dict[str, int]], None],
) -> None:
    """A generating benchmark's `main`: parse the command line (`arguments`); in the child started with
    `--generate-only PATH`, write the file with `generate(PATH, size)` and print what it returns (the
    problems planted) as JSON; otherwise have `script` write the file `name` in a child (`generated`)
    and call `report(options, path, planted)`."""
    options = parser.parse_args()
    if options.generate_only:
        print(json.dumps(generate(Path(options.generate_only), options.size)))
        return
    with generated(script, options.size_option, options.size, name, options.keep) as (path, planted):
        report(options, path, planted)


@contextmanager
def generated(script: str, size: str, count: int, name: str, keep: bool) -> Iterator[tuple[Path, dict[str, int]]]:
    """The file `name` in a new temporary folder, written by a child process (`script size count
    --generate-only PATH`, so this one stays small for the children it measures: on Linux a child's
    `ru_maxrss` starts from its parent's size), with what the child printed (the problems planted);
    removed afterwards unless `keep`, then its path is printed."""
    folder = Path(tempfile.mkdtemp(prefix="inspector-bench-"))
    path = folder / name
    try:
        child = [sys.executable, script, size, str(count), "--generate-only", str(path)]
        yield path, json.loads(subprocess.run(child, capture_output=True, text=True, check=True).stdout)
    finally:
        if keep:
            print(f"kept {path}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


def planted_text(planted: dict[str, int]) -> str:
    """The problems planted as "N kind, N kind"."""
    return ", ".join(f"{n:,} {kind}" for kind, n in planted.items())


def line_count(path: Path) -> int:
    """How many lines `path` holds."""
    with path.open(encoding="utf-8") as lines:
        return sum(1 for _ in lines)


def scan_command(path: Path) -> list[str]:
    """`python -m inspector scan --json --no-cache PATH`: the file read every time, never taken from the
    scan's cache (the benchmarks measure reading it)."""
    return [sys.executable, "-m", "inspector", "scan", "--json", "--no-cache", str(path)]


def fix_command(path: Path, output: Path) -> list[str]:
    """`python -m inspector fix PATH --accept all -o OUTPUT`."""
    return [sys.executable, "-m", "inspector", "fix", str(path), "--accept", "all", "-o", str(output)]


def fix_commands(path: Path, rewrite: str, suffix: str) -> dict[str, tuple[list[str], tuple[int, ...]]]:
    """`inspector fix --accept all -o` of `path` (each run replacing the last's output) and its
    baseline, `rewrite`: Python code reading the file named by `sys.argv[1]` with `json` and
    writing it again to `sys.argv[2]` (`json.dumps`, whose encoder is `json`'s fast one, not
    `json.dump`'s), both into files beside `path` ending in `suffix`."""
    fix = [*fix_command(path, path.with_name("fixed" + suffix)), "--force"]
    again = [sys.executable, "-c", rewrite, str(path), str(path.with_name("rewritten" + suffix))]
    return {"json rewrite": (again, (0,)), "fix all": (fix, (0, 1))}


def print_fix_target(measured: dict[str, list[Run]]) -> None:
    """Print the ratio of `fix all` to `json rewrite` (`fix_commands`) in best wall time and peak
    memory, against `FIX_TARGET`."""
    fixed, again = min(measured["fix all"]), min(measured["json rewrite"])
    ratio = fixed[0] / again[0]
    memory = max(r[2] for r in measured["fix all"]) / max(r[2] for r in measured["json rewrite"])
    print(
        f"fix time:    {ratio:.2f}x json rewrite (target <= {FIX_TARGET}x) "
        f"{'ok' if ratio <= FIX_TARGET else 'OVER TARGET'}; memory {memory:.2f}x"
    )


def interleave(commands: dict[str, tuple[list[str], tuple[int, ...]]], runs: int) -> dict[str, list[Run]]:
    """Measure each of `commands` (name -> command, exit codes allowed) `runs` times, interleaved, so
    drift in the machine's load hits all alike, after one uncounted warm-up run of each (it fills
    the bytecode cache and the file system's cache); return the runs of each, by name."""
    for command, allowed in commands.values():
        measure(command, allowed)
    measured: dict[str, list[Run]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, (command, allowed) in commands.items():
            measured[name].append(measure(command, allowed))
    return measured


def print_table(measured: dict[str, list[Run]], runs: int, worst: bool = True, note: str = "; CPU of the best") -> None:
    """Print, for each command, its best wall time, its worst (when `worst`), the CPU time of its best
    run and its peak memory over the runs; `note` follows "(best of N" in the heading."""
    heading = f"{'seconds':>10}{'worst':>8}" if worst else f"{'seconds':>10}"
    print(f"\n{'':12}{heading}{'CPU s':>8}{'peak MB':>10}   (best of {runs}{note})")
    for name, results in measured.items():
        seconds, cpu, _ = min(results)
        slowest = f"{max(t for t, _, _ in results):>8.2f}" if worst else ""
        print(f"{name:12}{seconds:>10.2f}{slowest}{cpu:>8.2f}{max(m for _, _, m in results):>10.0f}")


def print_pair_ratios(measured: dict[str, list[Run]], baseline: str, subject: str = SCAN) -> None:
    """Print the wall-time ratio of `subject` to `baseline` in each interleaved run, sorted (the spread),
    then an empty line."""
    ratios = sorted(s[0] / b[0] for s, b in zip(measured[subject], measured[baseline]))
    print(f"time ratio of each run pair: {', '.join(f'{r:.2f}' for r in ratios)}\n")


def print_targets(
    measured: dict[str, list[Run]],
    baseline: str,
    subject: str = SCAN,
    time_target: float = TIME_TARGET,
    memory_target: float = MEMORY_TARGET,
) -> None:
    """Print the ratio of `subject` to `baseline` in best wall time and in peak memory, each against
    its target, "ok" or "OVER TARGET"."""
    for label, ratio, target in (
        ("time", min(measured[subject])[0] / min(measured[baseline])[0], time_target),
        ("memory", max(r[2] for r in measured[subject]) / max(r[2] for r in measured[baseline]), memory_target),
    ):
        print(
            f"scan {label + ':':8}{ratio:.2f}x {baseline} (target <= {target}x) "
            f"{'ok' if ratio <= target else 'OVER TARGET'}"
        )


def findings(path: Path) -> dict[str, int]:
    """The findings `inspector scan --json` reports on `path`, by kind. Exits when the scan crashes."""
    report = subprocess.run(scan_command(path), capture_output=True, text=True, cwd=ROOT)
    if report.returncode not in (0, 1):
        sys.exit(f"inspector scan exited {report.returncode}:\n{report.stderr}")
    return json.loads(report.stdout)["summary"]["by_kind"]


def print_findings(found: dict[str, int], planted: dict[str, int], width: int = 21, only_planted: bool = False) -> None:
    """Print, for each kind planted or found (only those planted when `only_planted`), the findings
    reported against the problems planted, with "MISMATCH" where they differ."""
    kinds = list(planted) if only_planted else sorted(planted.keys() | found.keys())
    for kind in kinds:
        reported, made = found.get(kind, 0), planted.get(kind, 0)
        print(f"{kind + ':':{width}}{reported:,} reported, {made:,} planted{'' if reported == made else '  MISMATCH'}")


def print_fix(path: Path, output: str) -> None:
    """Measure one `inspector fix --accept all -o NEW` of `path` (NEW is `output` beside it) and print
    its wall time and peak memory."""
    seconds, _, megabytes = measure(fix_command(path, path.with_name(output)), (0, 1))
    print(f"\nfix --accept all -o NEW: {seconds:.2f} s, peak {megabytes:.0f} MB")


def compare(
    path: Path,
    planted: dict[str, int],
    runs: int,
    baseline: str,
    command: list[str],
    *,
    extra: dict[str, tuple[list[str], tuple[int, ...]]] | None = None,
    worst: bool = True,
    note: str = "; CPU of the best",
    pairs: bool = False,
    width: int = 21,
) -> dict[str, list[Run]]:
    """Measure `command` (named `baseline`, exit 0 expected), `inspector scan --json PATH` and `extra`
    `runs` times, interleaved; print the table (`print_table`), the ratio of each run pair when
    `pairs`, the ratios against the targets and the findings against `planted`; return the runs."""
    commands = {baseline: (command, (0,)), SCAN: (scan_command(path), (0, 1)), **(extra or {})}
    measured = interleave(commands, runs)
    print_table(measured, runs, worst, note)
    if pairs:
        print_pair_ratios(measured, baseline)
    print_targets(measured, baseline)
    print_findings(findings(path), planted, width)
    return measured
