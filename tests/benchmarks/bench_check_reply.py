"""Benchmark: `inspector.check_reply` on one reply, as an agent's loop calls it after each turn.

Run by hand from anywhere (pytest does not collect it):

    python tests/benchmarks/bench_check_reply.py [--runs 2001]

In one process, after a first call has imported the detectors, it times `check_reply` (wall time,
`perf_counter`) on 2 KB replies: plain prose, prose after a call that ran and its result, one
opening with a tool result the model wrote itself (its call recovered, the reply repaired), and one
printing a call as `<tool_call>` markup; each case's median and 99th percentile against the 1 ms
target for the median. Then the hostile texts (long runs of what the parsers look for: braces,
markup openers, quotes) at 64 KB and 256 KB: the time ratio between the two sizes should be near 4
(linear; 16 would be quadratic). It exits 0 whatever the figures (a report, not a test).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from inspector import check_reply

TARGET_MS = 1.0
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "save_memory",
            "parameters": {
                "type": "object",
                "properties": {"memory_type": {"type": "string"}, "content": {"type": "string"}},
                "required": ["content"],
            },
        },
    }
]
PROSE = ("The meeting moved to Thursday; I noted the new room and the agenda you sent. " * 30)[:2000]
CALL = {"id": "call_1", "type": "function", "function": {"name": "save_memory", "arguments": '{"content": "room 4"}'}}
CASES: dict[str, Callable[[], object]] = {
    "prose": lambda: check_reply(PROSE, tools=TOOLS),
    "after a call": lambda: check_reply(PROSE, tools=TOOLS, calls=[CALL], results=['{"success": true}']),
    "fake result": lambda: check_reply(
        '{success: true, memory_type: "journal", content: "room 4"}' + PROSE, tools=TOOLS
    ),
    "printed call": lambda: check_reply(
        PROSE + '<tool_call>{"name": "save_memory", "arguments": {"content": "room 4"}}</tool_call>', tools=TOOLS
    ),
}
HOSTILE = {
    "braces": "{" * 2 + '"a":' + "{" * 1000,
    "markup openers": "<tool_call>{" + "<function=x>" * 50,
    "quotes": '{"content": "' + '\\"' * 500,
    "fake results": "{success: true}" * 100,
}


def timed(call: Callable[[], object], runs: int) -> list[float]:
    """`runs` wall times of `call`, in milliseconds."""
    times = []
    for _ in range(runs):
        begin = time.perf_counter()
        call()
        times.append((time.perf_counter() - begin) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2001, help="calls timed per case (2001)")
    runs = parser.parse_args().runs
    begin = time.perf_counter()
    check_reply("warm up", tools=TOOLS)
    print(f"first call (imports the detectors): {(time.perf_counter() - begin) * 1000:.0f} ms")
    for name, call in CASES.items():
        times = sorted(timed(call, runs))
        median = statistics.median(times)
        print(
            f"{name:>13}: median {median:.3f} ms, p99 {times[int(len(times) * 0.99)]:.3f} ms "
            f"(target median <= {TARGET_MS} ms) {'ok' if median <= TARGET_MS else 'OVER TARGET'}"
        )
    for name, unit in HOSTILE.items():
        small, large = ((unit * (size // len(unit) + 1))[:size] for size in (64_000, 256_000))
        ratio = min(timed(lambda: check_reply(large), 3)) / min(timed(lambda: check_reply(small), 3))
        print(f"hostile {name:>14}: 256 KB / 64 KB time ratio {ratio:.1f} (linear: ~4)")


if __name__ == "__main__":
    main()
