"""Benchmark: `inspector scan --json` over a home folder of ordinary Claude Code sessions, against
a usage tool that reads the same files (`ccusage session --json --offline`).

Run by hand from anywhere (pytest does not collect it):

    python tests/benchmarks/bench_usage_tool.py [--sessions 500] [--lines 400] [--runs 3]

The first run installs ccusage (`CCUSAGE`, pinned; its native build for this machine) with npm into
`${XDG_CACHE_HOME:-~/.cache}/inspector-bench/ccusage`, never into the repository; later runs reuse it.
It builds a temporary home folder (never the real one: every child runs with `HOME`, the state
folder and the tools' variables pointing into it) holding `--sessions` Claude Code sessions spread
over 20 projects, each written as `bench_claude_code.py` writes one (its own words and id; its
length drawn from an exponential law of mean `--lines`, 20 to 5,000 lines: calls, results,
thinking, a few planted problems). Then, each in its own process, interleaved, after one uncounted
warm-up run of each: ccusage, and `inspector scan --json` with no path (the person's own sessions,
found by discovery). The search index is also the scan's cache: where `scan` takes `--no-cache`,
the scan that reads every session (`--no-cache`, a first look) is measured too, and `scan --json`
alone is then the scan after it, over sessions that did not change. It prints the best wall time,
CPU time and peak memory of each, how much faster the scan after the first is (target: 10x),
and the ratio of each scan to ccusage (target: faster than it, a ratio under 1), and exits 0 whatever the numbers (a report, not a test) unless a child crashes.

Measured on 2 shared cores, 500 sessions (113 MB), best of 3: ccusage 1.03 s (1.63 s of CPU on
its threads); the first scan 2.82 s (5.12 s of CPU), 2.73x ccusage, where it was 4.10 to 5.2 s in
one process before the files were handed to a worker process per CPU (`scan/file_pool.py`); the
scan after it 0.51 s, 0.49x ccusage. That the scan after the first is now 5.5x faster than the first
(it was 11.4x) is the first's gain, not the second's loss: the second reads no session.

Then the secret search's quick look kept what it learnt to hold nothing from one session to the
next a process scans (each session had learnt its folder, version and keys again), and the
patterns were compiled at their first use (each process compiled all 170): the first scan, the code
before and after paired (farm-bench, median of 7 pairs), 0.90x in CPU time and 0.92x in wall time;
the quick look's CPU over the 500 sessions 1.02 s -> 0.67 s. Against ccusage, same machine, median
of 7 pairs: 2.87x in wall time (3.0 s against 1.03 s), 3.4x in CPU time. The scan's time is now
the reading of every byte (decoding 0.81 s, turns 0.55 s, detectors 1.7 s of CPU in one process,
`scan_stages.py` given the 500 files): per session, 1 ms at most is spent on anything but that. Two
workers on this machine's 2 cores spend 5.3 s of CPU where one process spends 3.9 s (the cores
share one physical core), so the wall time is about the one process's CPU time over 1.35.

After the command ended at once once its report was out and a scan loaded only what it uses: best
of 3 (load average under 1), ccusage 0.71 s, the first scan 1.57 s (2.22x ccusage in wall time,
2.44x in CPU), the scan after it 0.31 s (0.44x).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_claude_code
import bench_discovery
import bench_runner

CCUSAGE = "20.0.24"  # the last release whose native build for Linux x64 the registry serves with it
PROJECTS = 20
SHORTEST, LONGEST = 20, 5000


def ccusage() -> Path:
    """The ccusage command, installed with npm into the benchmarks' cache folder the first time."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "inspector-bench" / "ccusage"
    command = cache / "node_modules" / ".bin" / "ccusage"
    if not command.exists():
        cache.mkdir(parents=True, exist_ok=True)
        native = f"@ccusage/ccusage-{'linux' if sys.platform.startswith('linux') else sys.platform}-x64@{CCUSAGE}"
        subprocess.run(["npm", "install", "--silent", "--prefix", str(cache), f"ccusage@{CCUSAGE}", native], check=True)
    return command


def build_home(home: Path, sessions: int, mean_lines: int) -> int:
    """Write `sessions` Claude Code sessions under `home`; return their total size in bytes."""
    rng = random.Random(11)
    total = 0
    for number in range(sessions):
        lines = max(SHORTEST, min(LONGEST, int(rng.expovariate(1 / mean_lines))))
        session = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        path = home / ".claude" / "projects" / f"-home-dev-project{number % PROJECTS}" / f"{session}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        bench_claude_code.generate(path, lines, seed=number, session=session)
        total += path.stat().st_size
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=500, help="Claude Code sessions in the home folder")
    parser.add_argument("--lines", type=int, default=400, help="mean lines of a session")
    parser.add_argument("--runs", type=int, default=bench_runner.RUNS, help="interleaved runs of each command")
    options = parser.parse_args()
    usage_tool = ccusage()
    with tempfile.TemporaryDirectory(prefix="inspector-bench-home-") as folder:
        home = Path(folder)
        size = build_home(home, options.sessions, options.lines)
        print(f"{options.sessions} Claude Code sessions, {size / 2**20:.1f} MB, under a temporary home folder")
        environment = {
            **bench_discovery.environment(home),
            **bench_runner.child_environment(),
            "HOME": str(home),
            "XDG_STATE_HOME": str(home / ".local" / "state"),
        }
        scan = [sys.executable, "-m", "inspector", "scan", "--json"]
        commands = {"ccusage": [str(usage_tool), "session", "--json", "--offline"]}
        if "--no-cache" in subprocess.run([*scan, "--help"], capture_output=True, text=True, env=environment).stdout:
            commands["scan, first"] = [*scan, "--no-cache"]
        commands["scan"] = scan
        measured = interleaved(commands, options.runs, environment)
        bench_runner.print_table(measured, options.runs)
        if "scan, first" in measured:
            speedup = min(measured["scan, first"])[0] / min(measured["scan"])[0]
            print(f"scan after the first: {speedup:.1f}x faster than the first (target >= 10x)")
        base = min(measured["ccusage"])
        for name in commands.keys() - {"ccusage"}:
            best = min(measured[name])
            ratio = best[0] / base[0]
            print(
                f"{name}: {ratio:.2f}x ccusage in wall time, {best[1] / base[1]:.2f}x in CPU time "
                f"(target < 1x) {'ok' if ratio < 1 else 'OVER TARGET'}"
            )


def interleaved(commands: dict[str, list[str]], runs: int, environment: dict[str, str]) -> dict[str, list]:
    """Each command `runs` times in turn (after one uncounted run of each), with `environment`."""
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(environment)  # `bench_runner.measure` starts its children in this environment
    try:
        return bench_runner.interleave({name: (command, (0, 1)) for name, command in commands.items()}, runs)
    finally:
        os.environ.clear()
        os.environ.update(saved)


if __name__ == "__main__":
    main()
