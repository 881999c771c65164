"""Benchmark: `inspector scan --json` on a large LiteLLM log (one `standard_logging_object` per
line) against decoding its lines with `json.loads`.

Run by hand from anywhere (pytest does not collect it):

    python tests/benchmarks/bench_litellm.py [--events 100000] [--runs 3] [--keep]

A child process writes a deterministic log of N model calls shaped as litellm 1.106 writes them
(see `sessions/litellm.standard-logging.jsonl`): conversations of 4 to 16
calls each, every call's `messages` the whole history so far (user turns, replies, `read_file`
calls and their results), its `response` a ChatCompletion dict. About 2% of the replies start
with a fake JS-style result and about 4% of the calls have `}}`-broken arguments, each planted
once (the calls after it repeat it); a conversation whose last reply is a call leaves that call
without a result in the log (an `orphan-call`). Then, interleaved and each in its own process, a baseline
that `json.loads` every line and `python -m inspector scan --json FILE`; it prints the best
wall time, CPU time and peak memory (`ru_maxrss` of the child) of each, their ratios against
the targets (time at most 3.0x, memory at most 2.5x), and the findings against the problems
planted. It exits 0 whatever the numbers (a report, not a test) unless a child crashes.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_runner import ROOT, WORDS, measure

TIME_TARGET, MEMORY_TARGET, RUNS = 3.0, 2.5, 3
BASELINE = "import json, sys\nrecords = [json.loads(line) for line in open(sys.argv[1], encoding='utf-8')]"
FAKE = '{success: true, saved: "notes"} '


def payload(conversation: int, number: int, messages: list, reply: dict) -> dict:
    """One call's standard logging payload (the keys the reader and detection look at, and a few more)."""
    return {
        "id": f"chatcmpl-{conversation}-{number}",
        "trace_id": f"trace-{conversation:06d}",
        "call_type": "completion",
        "stream": None,
        "response_cost": 0.0,
        "status": "success",
        "model": "gpt-4o-mini",
        "session_id": "",
        "startTime": 1.7e9 + conversation * 100 + number,
        "metadata": {"user_api_key_hash": None},
        "model_parameters": {},
        "messages": messages,
        "response": {
            "id": f"chatcmpl-{conversation}-{number}",
            "object": "chat.completion",
            "choices": [{"index": 0, "finish_reason": "stop", "message": reply}],
        },
    }


def generate(path: Path, count: int) -> dict[str, int]:
    """Write a log of `count` calls to `path`; return how many problems of each kind it holds."""
    rng = random.Random(13)
    pool = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 22))).capitalize() + "." for _ in range(2000)]
    planted = {"result-prefix": 0, "malformed-arguments": 0, "orphan-call": 0}
    written = conversation = 0
    with path.open("w", encoding="utf-8") as out:
        while written < count:
            conversation += 1
            messages = [{"role": "system", "content": "You help with notes."}]
            for number in range(min(rng.randint(4, 16), count - written)):
                if messages[-1]["role"] != "tool":
                    messages.append({"role": "user", "content": rng.choice(pool)})
                if rng.random() < 0.5:
                    raw = json.dumps({"file_path": f"notes/{rng.choice(WORDS)}.txt"})
                    if rng.random() < 0.04:
                        raw += "}}"
                        planted["malformed-arguments"] += 1
                    call_id = f"call_{conversation}_{number}"
                    reply = {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [
                            {"id": call_id, "type": "function", "function": {"name": "read_file", "arguments": raw}}
                        ],
                    }
                    answer = {"role": "tool", "tool_call_id": call_id, "content": rng.choice(pool)}
                else:
                    fake = rng.random() < 0.02
                    planted["result-prefix"] += fake
                    reply, answer = {"role": "assistant", "content": (FAKE if fake else "") + rng.choice(pool)}, None
                out.write(json.dumps(payload(conversation, number, messages, reply)) + "\n")
                written += 1
                messages = messages + [reply] + ([answer] if answer else [])
            # a conversation whose last call's result no later call carries: the log ends before it
            planted["orphan-call"] += messages[-1]["role"] == "tool"
    return planted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000, help="model calls (lines) in the generated log")
    parser.add_argument("--keep", action="store_true", help="keep the generated file and print its path")
    parser.add_argument("--runs", type=int, default=RUNS, help="interleaved runs of each command (best is compared)")
    parser.add_argument("--generate-only", metavar="PATH", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.generate_only:  # the child that writes the file
        print(json.dumps(generate(Path(options.generate_only), options.events)))
        return
    folder = Path(tempfile.mkdtemp(prefix="bench-litellm-"))
    try:
        path = folder / "log.jsonl"
        made = json.loads(
            subprocess.run(
                [sys.executable, __file__, "--events", str(options.events), "--generate-only", str(path)],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
        )
        print(f"log: {options.events:,} calls, {path.stat().st_size / 1e6:.1f} MB, planted: {made}")
        baseline = [sys.executable, "-c", BASELINE, str(path)]
        scan = [sys.executable, "-m", "inspector", "scan", "--json", "--no-cache", str(path)]
        runs: dict[str, list] = {"json.loads": [], "scan --json": []}
        for _ in range(options.runs):
            runs["json.loads"].append(measure(baseline, (0,)))
            runs["scan --json"].append(measure(scan, (0, 1)))
        best = {}
        print(f"\n{'':12}{'seconds':>10}{'CPU s':>8}{'peak MB':>10}   (best of {options.runs})")
        for name, measured in runs.items():
            seconds, cpu, _ = min(measured)
            best[name] = (seconds, max(m for _, _, m in measured))
            print(f"{name:12}{seconds:>10.2f}{cpu:>8.2f}{best[name][1]:>10.0f}")
        for label, index, target in (("time", 0, TIME_TARGET), ("memory", 1, MEMORY_TARGET)):
            ratio = best["scan --json"][index] / best["json.loads"][index]
            print(
                f"scan {label + ':':8}{ratio:.2f}x json.loads (target <= {target}x) {'ok' if ratio <= target else 'OVER TARGET'}"
            )
        report = json.loads(subprocess.run(scan, capture_output=True, text=True, cwd=ROOT).stdout)
        for kind, made_count in made.items():
            reported = sum(f["kind"] == kind for s in report["sessions"] for f in s["findings"])
            print(
                f"{kind + ':':21}{reported:,} reported, {made_count:,} planted{'' if reported == made_count else '  MISMATCH'}"
            )
        if options.keep:
            kept = Path(tempfile.gettempdir()) / path.name
            shutil.copy(path, kept)
            print(f"kept {kept}")
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
