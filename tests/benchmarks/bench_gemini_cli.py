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

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_runner

HERMES = '<tool_call>{"name":"read_file","arguments":{"file_path":"notes.txt"}}</tool_call>'
BASELINE = "import json,sys\nrecords = [json.loads(line) for line in open(sys.argv[1], encoding='utf-8')]"


def generate(path: Path, count: int) -> dict[str, int]:
    """Write a log of about `count` lines to `path`; return how many problems of each kind it holds."""
    rng = random.Random(11)
    pool = bench_runner.word_pool(rng)
    planted = {"result-prefix": 0, "tool-markup": 0, "tool-error": 0}
    history: list[dict] = []
    lines: list[str] = []
    clock = [0]

    def stamp() -> str:
        clock[0] += 1
        return (
            f"2026-11-24T{clock[0] // 3600000 % 24:02d}:{clock[0] // 60000 % 60:02d}:{clock[0] // 1000 % 60:02d}"
            f".{clock[0] % 1000:03d}Z"
        )

    def put(record: dict) -> None:
        lines.append(json.dumps(record, ensure_ascii=False, separators=(",", ":")))

    def message(record: dict) -> None:
        put(record)
        index = next(
            (i for i in range(len(history) - 1, max(-1, len(history) - 3), -1) if history[i]["id"] == record["id"]),
            None,
        )
        if index is None:
            history.append(record)
        else:
            history[index] = record
        put({"$set": {"lastUpdated": stamp()}})

    def metadata() -> None:
        put(
            {
                "sessionId": "bench-session",
                "projectHash": "c3435",
                "startTime": stamp(),
                "lastUpdated": stamp(),
                "kind": "main",
            }
        )

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
        message(
            {
                "id": f"u{number}",
                "timestamp": stamp(),
                "type": "user",
                "content": [{"text": " ".join(rng.sample(pool, rng.randint(1, 3)))}],
            }
        )
        reply = {
            "id": f"g{number}",
            "timestamp": stamp(),
            "type": "gemini",
            "thoughts": [],
            "tokens": {"input": 500, "output": 40, "cached": 0, "thoughts": 0, "tool": 0, "total": 540},
            "model": "gemini-2.5-flash",
        }
        roll = rng.random()
        if roll < 0.3:  # a call, written without and then with its calls, and its result repeated
            call_id = f"read_file__read_file_{number}_0"
            error = rng.random() < 0.1
            response = {"error": "File not found."} if error else {"output": " ".join(rng.sample(pool, 4))}
            planted["tool-error"] += error
            message({**reply, "content": "Reading it."})
            result = [{"functionResponse": {"id": call_id, "name": "read_file", "response": response}}]
            message(
                {
                    **reply,
                    "content": "Reading it.",
                    "toolCalls": [
                        {
                            "id": call_id,
                            "name": "read_file",
                            "args": {"file_path": f"notes/{number}.txt"},
                            "result": result,
                            "status": "error" if error else "success",
                            "timestamp": stamp(),
                            "resultDisplay": "",
                            "displayName": "ReadFile",
                            "description": "",
                            "renderOutputAsMarkdown": True,
                        }
                    ],
                }
            )
            message({"id": f"r{number}", "timestamp": stamp(), "type": "user", "content": result})
            reply = {**reply, "id": f"g{number}b", "timestamp": stamp()}
            text = " ".join(rng.sample(pool, rng.randint(1, 5)))  # (drawn even when unused: the file stays as it was)
            if error:  # said plainly: random words may read as a success claim
                text = "That file was not found."
        elif roll < 0.32:  # a fake result the model wrote itself
            planted["result-prefix"] += 1
            text = f'{{success: true, memory_type: "journal", content: {json.dumps(rng.choice(pool))}}}' + " ".join(
                rng.sample(pool, 2)
            )
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


def report(options, path: Path, planted: dict[str, int]) -> None:
    """Measure the baseline and the scan on the generated file at `path` and print the figures."""
    total = planted.pop("lines")
    print(f"log: {total:,} lines, {path.stat().st_size / 1e6:.1f} MB, planted: {bench_runner.planted_text(planted)}")
    bench_runner.compare(
        path,
        planted,
        options.runs,
        "json.loads",
        [sys.executable, "-c", BASELINE, str(path)],
        worst=False,
        note="",
        width=16,
    )


def main() -> None:
    parser = bench_runner.arguments(__doc__, "--events", 100_000, "lines of the generated log")
    bench_runner.run(parser, __file__, generate, "bench.gemini-cli.jsonl", report)


if __name__ == "__main__":
    main()
