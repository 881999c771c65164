"""Benchmark: `inspector scan --json` on a large LangChain `messages_to_dict` history against
decoding it with `json.load`.

Run by hand from anywhere (pytest does not collect it):

    python tests/benchmarks/bench_langchain.py [--events 100000] [--runs 3] [--keep]

A child process writes a deterministic JSON list of N messages shaped as langchain-core 1.7 writes
them (`{"type", "data"}` with every default field; see
`sessions/langchain.messages.json`): each user turn is answered by zero to three
`ai` messages with one `read_file` call (in `tool_calls` and, as a provider gave it, in
`additional_kwargs.tool_calls`) and their `tool` messages, then a final `ai` reply. About 2% of the
replies start with a fake JS-style result, about 1% leak the call as Hermes `<tool_call>` markup,
and about 4% of the calls came with broken arguments, so they are in `invalid_tool_calls` and
unanswered (as LangGraph leaves them: a `malformed-arguments` and an `orphan-call` each). Then,
interleaved and each in its own process, a baseline that `json.load`s the file and `python -m
inspector scan --json FILE`; it prints the best and worst wall time, the CPU time and the peak
memory (the child's own `ru_maxrss`) of each, their ratios against the targets (time at most 3.0x,
memory at most 2.5x the baseline), the findings against the problems planted, and the time of one
`fix --accept all -o NEW`. It exits 0 whatever the numbers (a report, not a test) unless a child
crashes.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_runner
from bench_runner import WORDS

BASELINE = "import json, sys\nvalue = json.load(open(sys.argv[1], encoding='utf-8'))"


def message(kind: str, content: str, **fields) -> dict:
    """A message as `messages_to_dict` writes it."""
    data = {
        "content": content,
        "additional_kwargs": fields.pop("additional_kwargs", {}),
        "response_metadata": {},
        "type": kind,
        "name": fields.pop("name", None),
        "id": fields.pop("id", None),
    }
    if kind == "ai":
        data.update(tool_calls=[], invalid_tool_calls=[], usage_metadata=None)
    data.update(fields)
    return {"type": kind, "data": data}


def generate(path: Path, count: int) -> dict[str, int]:
    """Write a history of about `count` messages to `path`; return how many problems of each kind it holds."""
    rng = random.Random(11)
    pool = bench_runner.word_pool(rng)
    planted = {"result-prefix": 0, "malformed-arguments": 0, "orphan-call": 0, "tool-markup": 0}
    messages = [message("system", "You help with notes.", id="system_0")]
    turn = 0
    while len(messages) < count:
        turn += 1
        messages.append(message("human", " ".join(rng.sample(pool, rng.randint(1, 3))), id=f"user_{turn}"))
        for step in range(rng.choice((0, 0, 1, 1, 2, 3))):
            call_id = f"call_{turn:06d}_{step}"
            args = {"file_path": f"notes/{rng.choice(WORDS)}.txt"}
            raw = json.dumps(args)
            broken = rng.random() < 0.04  # extra closing braces, parsed into invalid_tool_calls
            if broken:
                raw += "}}"
            openai = {
                "tool_calls": [{"id": call_id, "type": "function", "function": {"name": "read_file", "arguments": raw}}]
            }
            if broken:
                messages.append(
                    message(
                        "ai",
                        "",
                        additional_kwargs=openai,
                        invalid_tool_calls=[
                            {
                                "type": "invalid_tool_call",
                                "id": call_id,
                                "name": "read_file",
                                "args": raw,
                                "error": None,
                            }
                        ],
                    )
                )
                planted["malformed-arguments"] += 1
                planted["orphan-call"] += 1
                break  # LangGraph ends the run: the invalid call stays unanswered
            messages.append(
                message(
                    "ai",
                    "",
                    additional_kwargs=openai,
                    tool_calls=[{"name": "read_file", "args": args, "id": call_id, "type": "tool_call"}],
                )
            )
            messages.append(
                message(
                    "tool",
                    "\n".join(rng.sample(pool, rng.randint(1, 12))),
                    name="read_file",
                    tool_call_id=call_id,
                    artifact=None,
                    status="success",
                )
            )
        reply = " ".join(rng.sample(pool, rng.randint(1, 6)))
        roll = rng.random()
        if roll < 0.02:  # a fake result the model wrote itself: no call ran
            reply = f'{{success: true, memory_type: "journal", content: {json.dumps(rng.choice(pool))}}}' + reply
            planted["result-prefix"] += 1
        elif roll < 0.03:  # the call leaked as markup in the reply: nothing ran
            leak = json.dumps({"name": "read_file", "arguments": {"file_path": f"{rng.choice(WORDS)}.txt"}})
            reply = f"{reply}\n<tool_call>{leak}</tool_call>"
            planted["tool-markup"] += 1
        messages.append(message("ai", reply, id=f"msg_{turn:06d}"))
    path.write_text(json.dumps(messages, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return planted


def report(options, path: Path, planted: dict[str, int]) -> None:
    """Measure the baseline and the scan on the generated file at `path` and print the figures."""
    print(f"history: {path.stat().st_size / 1e6:.1f} MB, planted: {bench_runner.planted_text(planted)}")
    bench_runner.compare(path, planted, options.runs, "json.load", [sys.executable, "-c", BASELINE, str(path)])
    bench_runner.print_fix(path, "fixed.json")


def main() -> None:
    parser = bench_runner.arguments(__doc__, "--events", 100_000, "messages in the generated history")
    bench_runner.run(parser, __file__, generate, "langchain-bench.json", report)


if __name__ == "__main__":
    main()
