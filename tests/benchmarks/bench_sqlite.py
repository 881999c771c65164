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

import json
import random
import sqlite3
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[1])]  # the scripts beside it, and the tests' helpers
import bench_runner
from bench_runner import SCAN, TIME_TARGET

CHAT_SIZE = 100
BASELINE = "import sqlite3, sys\nfor row in sqlite3.connect(sys.argv[1]).execute('SELECT * FROM messages'): pass"


def generate(path: Path, count: int) -> dict[str, int]:
    """Write a RubyLLM database of `count` messages to `path`; return the problems planted, by kind.
    Runs in the child: the tables come from the tests, whose import loads the inspector."""
    from tests.helpers.rubyllm import SCHEMA  # the Rails tables the tests build

    rng = random.Random(11)
    pool = bench_runner.word_pool(rng, endings=".")
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA)
    planted = {"result-prefix": 0, "malformed-arguments": 0}
    messages: list[tuple] = []
    calls: list[tuple] = []
    stamp = "2026-01-23 09:14:02.000000"
    for chat_id in range(1, count // CHAT_SIZE + 2):
        conn.execute(
            "INSERT INTO chats (id, model_id, created_at, updated_at) VALUES (?, 'gemini-2.5-flash', ?, ?)",
            (chat_id, stamp, stamp),
        )
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
    conn.executemany(
        "INSERT INTO messages (id, chat_id, role, content, tool_call_id, created_at, updated_at) "
        f"VALUES (?, ?, ?, ?, ?, '{stamp}', '{stamp}')",
        messages,
    )
    conn.executemany(
        "INSERT INTO tool_calls (id, message_id, tool_call_id, name, arguments, created_at, updated_at) "
        f"VALUES (?, ?, ?, ?, ?, '{stamp}', '{stamp}')",
        calls,
    )
    conn.commit()
    conn.close()
    return {"messages": len(messages), **planted}


def compare(path: Path, planted: dict[str, int], runs: int) -> None:
    """Measure the baseline and both scans, print the table and the ratios, check the findings, then measure one
    `fix --accept all -o NEW` (streamed conversation by conversation: its peak memory is the point)."""
    scan = bench_runner.scan_command(path)
    measured = bench_runner.interleave(
        {
            "SELECT": ([sys.executable, "-c", BASELINE, str(path)], (0,)),
            SCAN: (scan, (0, 1)),
            "  --jobs 1": ([*scan, "--jobs", "1"], (0, 1)),
        },
        runs,
    )
    fixed = path.with_name("fixed.db")  # measured while this process is small: a child's peak starts at ours
    fix_wall, fix_cpu, fix_megabytes = bench_runner.measure(bench_runner.fix_command(path, fixed), (0, 1))
    fixed.unlink(missing_ok=True)
    print(f"\n{'':12}{'best s':>8}{'worst s':>9}{'best CPU s':>12}{'peak MB':>9}")
    for name, rows in measured.items():
        walls = [wall for wall, _, _ in rows]
        print(
            f"{name:12}{min(walls):>8.2f}{max(walls):>9.2f}{min(cpu for _, cpu, _ in rows):>12.2f}"
            f"{min(mb for _, _, mb in rows):>9.0f}"
        )
    from inspector.scan.parallel import available_cpus  # only now: a child's peak memory starts at ours

    best = {name: min(wall for wall, _, _ in rows) for name, rows in measured.items()}
    ratio = best["scan --json"] / best["SELECT"]
    print(
        f"\nscan time:   {ratio:.1f}x SELECT (target <= {TIME_TARGET}x) {'ok' if ratio <= TIME_TARGET else 'OVER TARGET'}"
        f"; in one process ({available_cpus()} CPUs here): {best['  --jobs 1'] / best['SELECT']:.1f}x"
    )
    print(
        f"scan memory: {min(m for *_, m in measured['scan --json']) / min(m for *_, m in measured['SELECT']):.1f}x SELECT"
    )
    bench_runner.print_findings(bench_runner.findings(path), planted, only_planted=True)
    print(f"fix --accept all -o NEW: {fix_wall:.2f} s ({fix_cpu:.2f} s CPU), peak {fix_megabytes:.0f} MB")


def report(options, path: Path, planted: dict[str, int]) -> None:
    """Measure the baseline and the scan on the generated file at `path` and print the figures."""
    total = planted.pop("messages")
    print(
        f"history: {total:,} messages, {path.stat().st_size / 1e6:.0f} MB, planted: "
        + bench_runner.planted_text(planted)
    )
    compare(path, planted, options.runs)


def main() -> None:
    parser = bench_runner.arguments(
        __doc__,
        "--messages",
        1_000_000,
        "messages in the generated history",
        keep_help="keep the generated database and print its path",
    )
    bench_runner.run(parser, __file__, generate, "history.rubyllm.db", report)


if __name__ == "__main__":
    main()
