"""Benchmark: `inspector scan --json` on a large ShareGPT / Hermes function-calling dataset against
decoding its lines with `json.loads`.

Run by hand from anywhere (pytest does not collect it):

    python tests/benchmarks/bench_sharegpt.py [--events 100000] [--runs 3]

A child process writes deterministic JSON Lines of examples in the hermes-function-calling-v1 shape
(see `sessions/sharegpt.hermes.jsonl`) holding about N turns in all: a system
turn, then user turns answered by zero to two `gpt` turns with a `<tool_call>` and their `tool`
turns with a `<tool_response>`, then a `gpt` reply. About 2% of the replies start with a fake
JS-style result and about 4% of the calls have `}}` too many. Then, interleaved and each in its own
process, the baseline and `python -m inspector scan --json FILE`; it prints the best times, the peak
memory (the child's own `ru_maxrss`), their ratios against the targets (time at most 3.0x, memory
at most 2.5x), the findings against the problems planted, and the time of one `fix`. It exits 0
whatever the numbers (a report, not a test) unless a child crashes.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_runner import ROOT, WORDS, measure

TIME_TARGET, MEMORY_TARGET, RUNS = 3.0, 2.5, 3
BASELINE = "import json, sys\nrecords = [json.loads(line) for line in open(sys.argv[1], encoding='utf-8')]"
TOOLS = json.dumps(
    [
        {
            "type": "function",
            "function": {
                "name": "read_file",
                "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
            },
        }
    ]
)


def generate(path: Path, count: int) -> dict[str, int]:
    """Write examples of about `count` turns in all to `path`; return the problems planted by kind."""
    rng = random.Random(13)
    pool = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 22))).capitalize() + "." for _ in range(4000)]
    planted = {"result-prefix": 0, "malformed-arguments": 0}
    turns = 0
    with open(path, "w", encoding="utf-8") as out:
        for number in range(count):
            if turns >= count:
                break
            conversation = [{"from": "system", "value": "You are a function calling AI model."}]
            for _ in range(rng.randint(1, 4)):
                conversation.append({"from": "human", "value": " ".join(rng.sample(pool, rng.randint(1, 3)))})
                for _ in range(rng.choice((0, 1, 1, 2))):
                    body = json.dumps({"name": "read_file", "arguments": {"path": f"{rng.choice(WORDS)}.txt"}})
                    if rng.random() < 0.04:
                        body += "}}"
                        planted["malformed-arguments"] += 1
                    conversation.append({"from": "gpt", "value": f"Reading.\n<tool_call>\n{body}\n</tool_call>"})
                    result = json.dumps({"name": "read_file", "content": "\n".join(rng.sample(pool, 4))})
                    conversation.append({"from": "tool", "value": f"<tool_response>\n{result}\n</tool_response>"})
                reply = " ".join(rng.sample(pool, rng.randint(1, 6)))
                if rng.random() < 0.02:
                    reply = f"{{success: true, content: {json.dumps(rng.choice(pool))}}}" + reply
                    planted["result-prefix"] += 1
                conversation.append({"from": "gpt", "value": reply})
            turns += len(conversation)
            out.write(json.dumps({"id": f"ex-{number}", "conversations": conversation, "tools": TOOLS}) + "\n")
    return planted


def run(script: str, generate_file: Callable[[Path, int], dict[str, int]], name: str, baseline: str) -> None:
    """Parse the command line; generate the file in a child, time the baseline against `scan --json`."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=100_000, help="turns (messages) in the generated file")
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--generate-only", metavar="PATH", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.generate_only:
        print(json.dumps(generate_file(Path(options.generate_only), options.events)))
        return
    path = Path(tempfile.mkdtemp(prefix="inspector-bench-")) / name
    try:
        made = subprocess.run(
            [sys.executable, script, "--events", str(options.events), "--generate-only", str(path)],
            capture_output=True,
            text=True,
            check=True,
        )
        planted = json.loads(made.stdout)
        print(f"file: {path.stat().st_size / 1e6:.1f} MB, planted: {planted}")
        commands = {
            "baseline": [sys.executable, "-c", baseline, str(path)],
            "scan --json": [sys.executable, "-m", "inspector", "scan", "--json", "--no-cache", str(path)],
        }
        runs: dict[str, list] = {label: [] for label in commands}
        for _ in range(options.runs):
            for label, command in commands.items():
                runs[label].append(measure(command, (0,) if label == "baseline" else (0, 1)))
        best = {
            label: (min(t for t, _, _ in measured), max(m for _, _, m in measured)) for label, measured in runs.items()
        }
        for label, (seconds, megabytes) in best.items():
            print(f"{label:12}{seconds:>8.2f} s{megabytes:>8.0f} MB peak")
        for label, index, target in (("time", 0, TIME_TARGET), ("memory", 1, MEMORY_TARGET)):
            ratio = best["scan --json"][index] / best["baseline"][index]
            print(f"scan {label}: {ratio:.2f}x the baseline (target <= {target}x)")
        report = subprocess.run(commands["scan --json"], capture_output=True, text=True, cwd=ROOT)
        print("found:", json.loads(report.stdout)["summary"]["by_kind"])
    finally:
        shutil.rmtree(path.parent, ignore_errors=True)


if __name__ == "__main__":
    run(__file__, generate, "sharegpt-bench.jsonl", BASELINE)
