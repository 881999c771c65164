"""Benchmark: `inspector scan --json` on a large RubyLLM history against a plain SQL `SELECT`.

Run by hand from anywhere (pytest does not collect it):

    python tests/benchmarks/bench_sqlite.py [--messages 1000000] [--runs 3] [--keep]

A child process writes a deterministic RubyLLM database (Rails `chats`, `messages`, `tool_calls`
with their indexes) of N messages in chats of 100: a quarter of the exchanges make a real call
(a `tool_calls` row, a `tool` message answering it, then a reply), about 2% of the replies start
with a fake JS-style `save_memory` result, and about 4% of the real calls have extra closing
braces. Then, three times each and each in its own process, a baseline that only iterates over
`SELECT * FROM messages` in Python, `python -m inspector scan --json DB` (on every CPU) and the
same with `--jobs 1` (in one process) run interleaved; it prints the best and worst wall time, the
best CPU time and the peak memory (the child's own `ru_maxrss`) of each, their ratios (time
target at most 3.0x), the findings reported against the problems planted, and the time and peak memory of one `fix --accept all -o NEW`. It exits 0
whatever the numbers (a report, not a test) unless a child crashes.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]
from bench_scan import WORDS, measure  # noqa: E402 - the same run measurement as the JSON benchmark

TIME_TARGET, RUNS, CHAT_SIZE = 3.0, 3, 100
BASELINE = "import sqlite3, sys\nfor row in sqlite3.connect(sys.argv[1]).execute('SELECT * FROM messages'): pass"


def generate(path: Path, count: int) -> dict[str, int]:
    """Write a RubyLLM database of `count` messages to `path`; return the problems planted, by kind.
    Runs in the child: the tables come from the tests, whose import loads the inspector."""
    from test_sqlite_rubyllm import SCHEMA  # the Rails tables the tests build

    rng = random.Random(11)
    pool = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 22))).capitalize() + "." for _ in range(4000)]
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA)
    planted = {"result-prefix": 0, "malformed-arguments": 0}
    messages: list[tuple] = []
    calls: list[tuple] = []
    stamp = "2026-01-23 09:14:02.000000"
    for chat_id in range(1, count // CHAT_SIZE + 2):
        conn.execute("INSERT INTO chats (id, model_id, created_at, updated_at) VALUES (?, 'gemini-2.5-flash', ?, ?)",
                     (chat_id, stamp, stamp))
        made = len(messages)
        while len(messages) - made < CHAT_SIZE - 3 and len(messages) < count - 3:
            message_id = len(messages) + 1
            roll = rng.random()
            messages.append((message_id, chat_id, "user", " ".join(rng.sample(pool, 2)), None))
            if roll < 0.25:
                arguments = json.dumps({"memory_type": "fact", "content": rng.choice(pool)})
                if rng.random() < 0.04:
                    arguments += "}}"
                    planted["malformed-arguments"] += 1
                calls.append((len(calls) + 1, message_id + 1, f"call_{len(calls) + 1}", "save_memory", arguments))
                messages.append((message_id + 1, chat_id, "assistant", "", None))
                messages.append((message_id + 2, chat_id, "tool", '{"success": true}', len(calls)))
                messages.append((message_id + 3, chat_id, "assistant", " ".join(rng.sample(pool, 3)), None))
            elif roll < 0.27:
                planted["result-prefix"] += 1
                fake = f'{{success: true, memory_type: "journal", content: {json.dumps(rng.choice(pool))}}}'
                messages.append((message_id + 1, chat_id, "assistant", fake + " ".join(rng.sample(pool, 3)), None))
            else:
                messages.append((message_id + 1, chat_id, "assistant", " ".join(rng.sample(pool, 4)), None))
        if len(messages) >= count - 3:
            break
    conn.executemany("INSERT INTO messages (id, chat_id, role, content, tool_call_id, created_at, updated_at) "
                     f"VALUES (?, ?, ?, ?, ?, '{stamp}', '{stamp}')", messages)
    conn.executemany("INSERT INTO tool_calls (id, message_id, tool_call_id, name, arguments, created_at, updated_at) "
                     f"VALUES (?, ?, ?, ?, ?, '{stamp}', '{stamp}')", calls)
    conn.commit()
    conn.close()
    return {"messages": len(messages), **planted}


@contextmanager
def generated_history(count: int, keep: bool) -> Iterator[tuple[Path, dict[str, int]]]:
    """A history of `count` messages written by a child process (so this one stays small for the
    children it measures), with the problems planted; removed afterwards unless `keep`."""
    folder = Path(tempfile.mkdtemp(prefix="inspector-bench-"))
    path = folder / "history.rubyllm.db"
    try:
        child = [sys.executable, __file__, "--messages", str(count), "--generate-only", str(path)]
        yield path, json.loads(subprocess.run(child, capture_output=True, text=True, check=True).stdout)
    finally:
        print(f"kept {path}") if keep else shutil.rmtree(folder, ignore_errors=True)


def compare(path: Path, planted: dict[str, int], runs: int) -> None:
    """Measure the baseline and both scans, print the table and the ratios, check the findings, then measure one
    `fix --accept all -o NEW` (streamed conversation by conversation: its peak memory is the point)."""
    baseline = [sys.executable, "-c", BASELINE, str(path)]
    scan = [sys.executable, "-m", "inspector", "scan", "--json", str(path)]
    measured: dict[str, list[tuple[float, float, float]]] = {"SELECT": [], "scan --json": [], "  --jobs 1": []}
    for _ in range(runs):  # interleaved, so drift in the machine's load hits all alike
        measured["SELECT"].append(measure(baseline, (0,)))
        measured["scan --json"].append(measure(scan, (0, 1)))
        measured["  --jobs 1"].append(measure([*scan, "--jobs", "1"], (0, 1)))
    fixed = path.with_name("fixed.db")  # measured while this process is small: a child's peak starts at ours
    fix_wall, fix_cpu, fix_megabytes = measure([sys.executable, "-m", "inspector", "fix", str(path), "--accept", "all",
                                                "-o", str(fixed)], (0, 1))
    fixed.unlink(missing_ok=True)
    print(f"\n{'':12}{'best s':>8}{'worst s':>9}{'best CPU s':>12}{'peak MB':>9}")
    for name, rows in measured.items():
        walls = [wall for wall, _, _ in rows]
        print(f"{name:12}{min(walls):>8.2f}{max(walls):>9.2f}{min(cpu for _, cpu, _ in rows):>12.2f}"
              f"{min(mb for _, _, mb in rows):>9.0f}")
    from inspector.scan.parallel import available_cpus  # only now: a child's peak memory starts at ours

    best = {name: min(wall for wall, _, _ in rows) for name, rows in measured.items()}
    ratio = best["scan --json"] / best["SELECT"]
    print(f"\nscan time:   {ratio:.1f}x SELECT (target <= {TIME_TARGET}x) {'ok' if ratio <= TIME_TARGET else 'OVER TARGET'}"
          f"; in one process ({available_cpus()} CPUs here): {best['  --jobs 1'] / best['SELECT']:.1f}x")
    print(f"scan memory: {min(m for *_, m in measured['scan --json']) / min(m for *_, m in measured['SELECT']):.1f}x SELECT")
    found = json.loads(subprocess.run(scan, capture_output=True, text=True).stdout)["summary"]["by_kind"]
    for kind, made in planted.items():
        print(f"{kind + ':':21}{found.get(kind, 0):,} reported, {made:,} planted"
              + ("" if found.get(kind, 0) == made else "  MISMATCH"))
    print(f"fix --accept all -o NEW: {fix_wall:.2f} s ({fix_cpu:.2f} s CPU), peak {fix_megabytes:.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=1_000_000, help="messages in the generated history")
    parser.add_argument("--keep", action="store_true", help="keep the generated database and print its path")
    parser.add_argument("--runs", type=int, default=RUNS, help="interleaved runs of each command (best is compared)")
    parser.add_argument("--generate-only", metavar="PATH", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.generate_only:  # the child that writes the database
        print(json.dumps(generate(Path(options.generate_only), options.messages)))
        return
    with generated_history(options.messages, options.keep) as (path, planted):
        total = planted.pop("messages")
        print(f"history: {total:,} messages, {path.stat().st_size / 1e6:.0f} MB, planted: "
              + ", ".join(f"{n:,} {kind}" for kind, n in planted.items()))
        compare(path, planted, options.runs)


if __name__ == "__main__":
    main()
