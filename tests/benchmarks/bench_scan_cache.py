"""Benchmark: a second `inspector scan` over unchanged sessions, taken from the search index.

Run by hand from anywhere (pytest does not collect it):

    python tests/benchmarks/bench_scan_cache.py [--files 500] [--megabytes 100] [--runs 3]

It builds a temporary home folder (never the real one: every child runs with `HOME` pointing
into it) as `bench_discovery.py` does: `--files` sessions of twelve agents where each keeps them,
filled up to sizes drawn around `--megabytes / --files`, and five history databases. Then, each
command in its own process, `--runs` times interleaved (the machine's load hits each alike):

- `scan --json --no-cache`: a full read, keeping nothing;
- `scan --json` on an empty index: the first run, a full read that keeps what it read;
- `scan --json` again: the second run, over unchanged files (goal: 10x faster than the first);
- `scan --json` once more after the largest Claude Code session had a line added: one file read;
- the same first and second runs of `scan` (the text report).

It prints the best time of each (on the clock, and the CPU time, steadier on a loaded machine),
the second run's speed-up over the first and what keeping costs a first run over `--no-cache`, checks that each output is the one of `--no-cache` byte for byte,
and exits 0 whatever the numbers (it is a report, not a test). Every child runs with its modules
compiled once beforehand, as an installed package's are.

Figures (`--files 300 --megabytes 40 --runs 3`, 2 shared cores, CPU time; the second run misses
its goal: most of it is starting Python and loading the modules):

    scan --json   --no-cache 1.20 s, first run 1.35 s, second run 0.36 s: 3.8x, one changed 0.44 s   before
                  --no-cache 1.12 s, first run 1.33 s, second run 0.37 s: 3.6x, one changed 0.42 s   after
    scan          --no-cache 1.25 s, first run 1.41 s, second run 0.46 s: 3.1x, one changed 0.53 s   before
                  --no-cache 1.24 s, first run 1.37 s, second run 0.47 s: 2.9x, one changed 0.54 s   after

("after": a scan also drops the files gone from disk, and the index keeps the findings' keys
the app's picker needs.)
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_discovery import environment, generate


def child_environment(home: Path, cache: Path) -> dict[str, str]:
    """The children's variables: every agent's folder inside `home`, modules compiled into `cache`."""
    variables = environment(home)
    variables.pop("PYTHONDONTWRITEBYTECODE", None)
    return {**variables, "PYTHONPYCACHEPREFIX": str(cache)}


def timed(arguments: list[str], variables: dict[str, str], home: Path) -> tuple[tuple[float, float], bytes, str]:
    """The seconds `inspector ARGUMENTS...` takes (on the clock, and of CPU), what it printed,
    and its last line on stderr."""
    started, used = time.perf_counter(), _children_cpu()
    done = subprocess.run(
        [sys.executable, "-m", "inspector", *arguments], env=variables, capture_output=True, cwd=home, check=False
    )
    seconds = (time.perf_counter() - started, _children_cpu() - used)
    if done.returncode not in (0, 1, 2) or b"Traceback" in done.stderr:
        sys.exit(f"inspector {' '.join(arguments)} failed:\n{done.stderr.decode()}")
    said = done.stderr.decode().strip().splitlines()
    return seconds, done.stdout, said[-1] if said else ""


def _children_cpu() -> float:
    """The CPU seconds (user and system) the children that ended have used."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def forget_index(home: Path) -> None:
    """Remove the search index (and its WAL files) from `home`'s state folder."""
    shutil.rmtree(home / ".local" / "state" / "inspector", ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=500, help="session files to generate (500)")
    parser.add_argument("--megabytes", type=int, default=100, help="their total size (100 MB)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each command (3)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="inspector-bench-cache-") as directory:
        home = Path(directory) / "home"
        total = generate(home, options.files, options.megabytes)
        variables = child_environment(home, Path(directory) / "pycache")
        changed = max((home / ".claude" / "projects").rglob("*.jsonl"), key=lambda path: path.stat().st_size)
        timed(["scan", "--json", "--no-cache"], variables, home)  # compiles the modules once
        forget_index(home)
        print(f"home: {options.files:,} session files of 12 agents + 5 history databases, {total / 1e6:,.0f} MB")
        times: dict[str, list[tuple[float, float]]] = {}
        for _ in range(options.runs):
            for output in (["--json"], []):
                name = "scan --json" if output else "scan"
                full, expected, _ = timed(["scan", *output, "--no-cache"], variables, home)
                forget_index(home)
                first, out_first, _ = timed(["scan", *output], variables, home)
                second, out_second, stats = timed(["scan", *output, "--cache-stats"], variables, home)
                with changed.open("a", encoding="utf-8") as session:  # one session goes on meanwhile
                    session.write("\n")
                one, _, one_stats = timed(["scan", *output, "--cache-stats"], variables, home)
                forget_index(home)
                if not expected == out_first == out_second:
                    sys.exit(f"{name}: the cached output differs from the one of --no-cache")
                for label, seconds in (("no-cache", full), ("first", first), ("second", second), ("one", one)):
                    times.setdefault(f"{name} {label}", []).append(seconds)
        print(f"second run: {stats}; after one session changed: {one_stats}")
        for name in ("scan --json", "scan"):
            for clock, kind in ((0, "on the clock"), (1, "of CPU")):
                read, kept, taken, one = (
                    min(seconds[clock] for seconds in times[f"{name} {label}"])
                    for label in ("no-cache", "first", "second", "one")
                )
                print(
                    f"{name:<12} {kind:<12} --no-cache {read:.2f} s, first run {kept:.2f} s (keeping costs "
                    f"{(kept - read) / read:+.0%}), second run {taken:.2f} s: {kept / taken:.1f}x faster (goal 10x); "
                    f"one session changed {one:.2f} s"
                )
        print(f"(best of {options.runs}; outputs equal to --no-cache's byte for byte; {os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
