"""Benchmark: `inspector scan --json` on a large Gemini CLI log against decoding its lines.

Run by hand from anywhere (pytest does not collect it):

    python tests/benchmarks/bench_gemini_cli.py [--events 100000] [--runs 3] [--keep]

It writes a deterministic Gemini CLI 0.61 chat log of N lines (events) to a temporary directory,
the way the CLI writes one: a metadata line, the person's messages, each reply written once and
again with its `toolCalls` (answered by their `result`, repeated as a `user` message of
`functionResponse` parts), a `$set` of `lastUpdated` after each message, two resumes (the
metadata again and the whole history in `$set.messages`), and one `$rewindTo` near the end.
About 2% of the replies start with a fake `save_memory` result, about 1% leak a `read_file` call
as Hermes markup, and about 3% of the calls end in `status: "error"`. Then it runs, each in its
own process and interleaved, a baseline that decodes every line with `json.loads` (keeping the
records) and `python -m inspector scan --json FILE`, and prints the best wall time and the peak
memory (the child's `ru_maxrss`) of each, their ratios against the targets (time at most 3.0x,
memory at most 2.5x), and the findings reported against those planted, by kind. It exits 0
whatever the numbers unless a child crashes.

The file is generated in a child process, so the measuring process stays small (on Linux a
child's `ru_maxrss` starts from its parent's size).
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scan import MEMORY_TARGET, ROOT, TIME_TARGET, WORDS, measure  # noqa: E402

HERMES = '<tool_call>{"name":"read_file","arguments":{"file_path":"notes.txt"}}</tool_call>'
BASELINE = "import json,sys\nrecords = [json.loads(line) for line in open(sys.argv[1], encoding='utf-8')]"


def generate(path: Path, count: int) -> dict[str, int]:
    """Write a log of about `count` lines to `path`; return how many problems of each kind it holds."""
    rng = random.Random(11)
    pool = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 22))).capitalize() + rng.choice(".!?")
            for _ in range(4000)]
    planted = {"result-prefix": 0, "tool-markup": 0, "tool-error": 0}
    history: list[dict] = []
    lines: list[str] = []
    clock = [0]

    def stamp() -> str:
        clock[0] += 1
        return f"2026-11-24T{clock[0] // 3600000 % 24:02d}:{clock[0] // 60000 % 60:02d}:{clock[0] // 1000 % 60:02d}" \
               f".{clock[0] % 1000:03d}Z"

    def put(record: dict) -> None:
        lines.append(json.dumps(record, ensure_ascii=False, separators=(",", ":")))

    def message(record: dict) -> None:
        put(record)
        index = next((i for i in range(len(history) - 1, max(-1, len(history) - 3), -1)
                      if history[i]["id"] == record["id"]), None)
        if index is None:
            history.append(record)
        else:
            history[index] = record
        put({"$set": {"lastUpdated": stamp()}})

    def metadata() -> None:
        put({"sessionId": "bench-session", "projectHash": "c3435", "startTime": stamp(), "lastUpdated": stamp(),
             "kind": "main"})

    metadata()
    resumes = {count // 3, 2 * count // 3}
    number = 0
    while len(lines) < count - 12:
        number += 1
        if any(len(lines) >= r for r in resumes):
            resumes = {r for r in resumes if len(lines) < r}
            metadata()
            put({"$set": {"sessionId": "bench-session"}})
            put({"$set": {"messages": history, "lastUpdated": stamp()}})
        message({"id": f"u{number}", "timestamp": stamp(), "type": "user",
                 "content": [{"text": " ".join(rng.sample(pool, rng.randint(1, 3)))}]})
        reply = {"id": f"g{number}", "timestamp": stamp(), "type": "gemini", "thoughts": [],
                 "tokens": {"input": 500, "output": 40, "cached": 0, "thoughts": 0, "tool": 0, "total": 540},
                 "model": "gemini-2.5-flash"}
        roll = rng.random()
        if roll < 0.3:  # a call, written without and then with its calls, and its result repeated
            call_id = f"read_file__read_file_{number}_0"
            error = rng.random() < 0.1
            response = {"error": "File not found."} if error else {"output": " ".join(rng.sample(pool, 4))}
            planted["tool-error"] += error
            message({**reply, "content": "Reading it."})
            result = [{"functionResponse": {"id": call_id, "name": "read_file", "response": response}}]
            message({**reply, "content": "Reading it.", "toolCalls": [{
                "id": call_id, "name": "read_file", "args": {"file_path": f"notes/{number}.txt"}, "result": result,
                "status": "error" if error else "success", "timestamp": stamp(), "resultDisplay": "",
                "displayName": "ReadFile", "description": "", "renderOutputAsMarkdown": True}]})
            message({"id": f"r{number}", "timestamp": stamp(), "type": "user", "content": result})
            reply = {**reply, "id": f"g{number}b", "timestamp": stamp()}
            text = " ".join(rng.sample(pool, rng.randint(1, 5)))
        elif roll < 0.32:  # a fake result the model wrote itself
            planted["result-prefix"] += 1
            text = f'{{success: true, memory_type: "journal", content: {json.dumps(rng.choice(pool))}}}' \
                   + " ".join(rng.sample(pool, 2))
        elif roll < 0.33:  # a call leaked as markup
            planted["tool-markup"] += 1
            text = rng.choice(pool) + "\n" + HERMES
        else:
            text = " ".join(rng.sample(pool, rng.randint(1, 7)))
        message({**reply, "content": text})
    message({"id": "u-gone", "timestamp": stamp(), "type": "user", "content": [{"text": "Never mind."}]})
    put({"$rewindTo": "u-gone"})
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return {"lines": len(lines), **planted}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000, help="lines of the generated log")
    parser.add_argument("--runs", type=int, default=3, help="interleaved runs of each command (best is compared)")
    parser.add_argument("--keep", action="store_true", help="keep the generated file and print its path")
    parser.add_argument("--generate-only", metavar="PATH", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.generate_only:  # the child that writes the file
        print(json.dumps(generate(Path(options.generate_only), options.events)))
        return
    path = Path(tempfile.mkdtemp(prefix="inspector-bench-")) / "bench.gemini-cli.jsonl"
    try:
        made = subprocess.run([sys.executable, __file__, "--events", str(options.events), "--generate-only",
                               str(path)], capture_output=True, text=True, check=True)
        planted = json.loads(made.stdout)
        total = planted.pop("lines")
        kinds = ", ".join(f"{n:,} {kind}" for kind, n in planted.items())
        print(f"log: {total:,} lines, {path.stat().st_size / 1e6:.1f} MB, planted: {kinds}")
        baseline = [sys.executable, "-c", BASELINE, str(path)]
        scan = [sys.executable, "-m", "inspector", "scan", "--json", str(path)]
        runs: dict[str, list[tuple[float, float, float]]] = {"json.loads": [], "scan --json": []}
        for _ in range(options.runs):
            runs["json.loads"].append(measure(baseline, (0,)))
            runs["scan --json"].append(measure(scan, (0, 1)))
        print(f"\n{'':12}{'seconds':>10}{'CPU s':>8}{'peak MB':>10}   (best of {options.runs})")
        best = {}
        for name, results in runs.items():
            seconds, cpu, _ = min(results)
            best[name] = (seconds, max(m for _, _, m in results))
            print(f"{name:12}{seconds:>10.2f}{cpu:>8.2f}{best[name][1]:>10.0f}")
        for label, index, target in (("time", 0, TIME_TARGET), ("memory", 1, MEMORY_TARGET)):
            ratio = best["scan --json"][index] / best["json.loads"][index]
            print(f"scan {label + ':':8}{ratio:.2f}x json.loads (target <= {target}x) "
                  f"{'ok' if ratio <= target else 'OVER TARGET'}")
        report = subprocess.run(scan, capture_output=True, text=True, cwd=ROOT)
        found = json.loads(report.stdout)["summary"]["by_kind"]
        for kind in sorted(planted.keys() | found.keys()):
            reported, count = found.get(kind, 0), planted.get(kind, 0)
            print(f"{kind + ':':16}{reported:,} reported, {count:,} planted{'' if reported == count else '  MISMATCH'}")
    finally:
        if options.keep:
            print(f"kept {path}")
        else:
            shutil.rmtree(path.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
