"""Benchmark: `inspector scan --json` on a large Codex CLI rollout against decoding its lines with `json.loads`.

Run by hand from anywhere (pytest does not collect it):

    python tests/benchmarks/bench_codex.py [--events 100000] [--runs 3] [--keep]

A child process writes a deterministic rollout of N lines shaped as Codex 0.169 writes them
(compact `{"timestamp", "ordinal", "type", "payload"}` lines; see
`sessions/codex.rollout.jsonl`): each user turn has its `turn_context` and
`event_msg` lines, zero to three `exec_command` calls (a `reasoning` item, the `function_call`, its
`token_usage_record`, `token_count` and `item_completed` events, then the `function_call_output`),
and a final assistant message with its events; about half the lines are events. About 2% of the
replies start with a fake JS-style result, about 1% leak the call as Hermes `<tool_call>` markup,
and about 4% of the calls have extra closing braces in their `arguments`. Then, three times each
and each in its own process, a baseline that reads the file's lines with `json.loads` (keeping the
records) and `python -m inspector scan --json FILE` run interleaved; it prints the best and worst
wall time, the CPU time and the peak memory (the child's own `ru_maxrss`) of each, their ratios
against the targets (time at most 3.0x, memory at most 2.5x the baseline), the findings reported
against the problems planted, and the time of one `fix --accept all -o NEW`. It exits 0 whatever the
numbers (a report, not a test) unless a child crashes.

Measured on 2 shared cores (load average about 1.8), best of 3: scan 1.63 s against 2.00 s, 0.81x
json.loads (the pairs 0.81x to 0.91x), memory 1.05x, where it was 1.15x (0.93x to 1.20x, more
loaded) before claimed-success stopped trying its pattern of every failure word at each position of
a non-ASCII result line (0.705 s -> 0.261 s of its CPU: the lines of this file are in many scripts);
the scan's CPU, the code before and after run back to back, 1.85 s -> 1.37 s.

Then claimed-success stopped sifting every result's lines for failure words when an exit status
decides it (every Codex result opens with `Process exited with code N`), and Claude Code's claim
passes over records without a `parentUuid` at once: `scan_stages.py`, the code before and after
back to back, best of 5: claimed-success 0.158 s -> 0.067 s, detecting the format 0.042 s ->
0.027 s, stages in all 1.096 s -> 0.926 s; the benchmark, best of 5 and of 7 on 2 shared cores,
0.69x and 0.81x json.loads (pairs 0.61x-0.93x and 0.68x-1.22x, median 0.80x).

With the patterns compiled at their first use (a process compiled all 170 its modules hold, 45 ms;
a Codex scan uses about 33) and the secret search's quick look unchanged but for what it keeps:
best of 7, 0.78x json.loads (pairs 0.60x-1.03x, median 0.72x), memory 1.06x; farm-bench, median of
9 pairs, 0.73x json.loads and 1.33x a `msgspec` decode of every line into dicts (1.10 s of CPU).

Then the command ended at once once its report was out (`support/quick_exit.py`), the secret search's
quick look read each id once a batch (its CPU 0.17 s -> 0.12 s), a rollout's turns got their model
in place rather than as copies (the reader's CPU 0.150 s -> 0.118 s, best of 5) and a scan loaded only
what it uses: farm-bench against `json.loads`, 0.90x before (9 pairs) and 0.82x-0.88x after (two runs
of 11 pairs), memory 1.02x; the scan against the code before the import cut alone, 0.90x.

Then the secret search's quick look read each batch in one pass of an RE2 automaton, and a result
whose first lines state its exit status (Codex's header, after its `Chunk ID` and `Wall time`) was
judged by that line before its other lines were cut out: `scan_stages.py`, the code before and
after back to back, secret 0.137-0.148 s -> 0.083-0.090 s, claimed-success 0.064-0.078 s ->
0.030-0.035 s. farm-bench, 15 pairs pinned to one core, medians: 0.92x the code before; 0.68x
`json.loads` and 1.30x a `msgspec` decode of every line into dicts (`msgspec.json.Decoder().decode`
a line at a time, the records kept); memory 208 MB against `json.loads`'s 202 MB.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_runner
from bench_runner import WORDS

BASELINE = "import json, sys\nrecords = [json.loads(line) for line in open(sys.argv[1], encoding='utf-8')]"
SESSION_ID = "01a20b89-3790-7752-a0ad-e1b340dd9094"


class Rollout:
    """Writes the lines of one rollout, numbering them as Codex does (`ordinal`)."""

    def __init__(self, out) -> None:
        self.out = out
        self.count = 0

    def line(self, kind: str, payload: dict, metadata: dict | None = None) -> None:
        seconds = self.count // 20
        record = {
            "timestamp": f"2026-11-24T{3 + seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}.000Z",
            "ordinal": self.count,
            "type": kind,
            "payload": payload,
        }
        if metadata is not None:
            record["metadata"] = metadata
        self.out.write(json.dumps(record, separators=(",", ":"), ensure_ascii=False) + "\n")
        self.count += 1

    def item(self, payload: dict) -> None:
        self.line("response_item", payload, {"history_sequence": self.count, "client_authored": False})

    def event(self, payload: dict) -> None:
        self.line("event_msg", payload)


def generate(path: Path, count: int) -> dict[str, int]:
    """Write a rollout of about `count` lines to `path`; return how many problems of each kind it holds."""
    rng = random.Random(5)
    pool = bench_runner.word_pool(rng)
    planted = {"result-prefix": 0, "malformed-arguments": 0, "tool-markup": 0}
    usage = {
        "input_tokens": 500,
        "cached_input_tokens": 0,
        "output_tokens": 40,
        "reasoning_output_tokens": 0,
        "total_tokens": 540,
    }
    with path.open("w", encoding="utf-8") as out:
        rollout = Rollout(out)
        rollout.line(
            "session_meta",
            {
                "id": SESSION_ID,
                "timestamp": "2026-11-24T03:00:00.000Z",
                "cwd": "/tmp/cx-work",
                "originator": "codex_exec",
                "cli_version": "0.169.0",
                "model_provider": "openai",
                "base_instructions": {"text": " ".join(rng.sample(pool, 60))},
            },
        )
        rollout.item(
            {
                "type": "message",
                "role": "user",
                "content": [
                    {
                        "type": "input_text",
                        "text": "<environment_context>\n  <cwd>/tmp/cx-work</cwd>\n</environment_context>",
                    }
                ],
            }
        )
        turn = 0
        while rollout.count < count:
            turn += 1
            turn_id = f"turn-{turn:06d}"
            rollout.event({"type": "task_started", "turn_id": turn_id, "model_context_window": 272000})
            rollout.line(
                "turn_context",
                {
                    "turn_id": turn_id,
                    "cwd": "/tmp/cx-work",
                    "approval_policy": "never",
                    "model": "gpt-5-codex",
                    "summary": "auto",
                },
            )
            request = " ".join(rng.sample(pool, rng.randint(1, 3)))
            rollout.item({"type": "message", "role": "user", "content": [{"type": "input_text", "text": request}]})
            rollout.event(
                {
                    "type": "item_completed",
                    "turn_id": turn_id,
                    "item": {"type": "UserMessage", "content": [{"type": "text", "text": request}]},
                }
            )
            for step in range(rng.choice((0, 0, 1, 1, 2, 3))):
                call_id = f"call_{turn:06d}_{step}"
                command = f"grep -n {rng.choice(WORDS)} notes/{rng.choice(WORDS)}.txt"
                arguments = json.dumps({"cmd": command})
                if rng.random() < 0.04:  # extra closing braces, so the call could not run as sent
                    arguments += "}}"
                    planted["malformed-arguments"] += 1
                output = "\n".join(rng.sample(pool, rng.randint(1, 12)))
                if rng.random() < 0.5:
                    rollout.item({"type": "reasoning", "summary": [], "encrypted_content": "gAAAA" + "x" * 400})
                rollout.item(
                    {"type": "function_call", "name": "exec_command", "arguments": arguments, "call_id": call_id}
                )
                rollout.line(
                    "token_usage_record", {"turn_id": turn_id, "response_id": f"resp_{call_id}", "usage": usage}
                )
                rollout.event({"type": "token_count", "info": {"total_token_usage": usage, "last_token_usage": usage}})
                rollout.event(
                    {
                        "type": "item_completed",
                        "turn_id": turn_id,
                        "item": {
                            "type": "CommandExecution",
                            "id": call_id,
                            "command": ["/bin/bash", "-lc", command],
                            "aggregated_output": output,
                            "exit_code": 0,
                        },
                    }
                )
                rollout.item(
                    {
                        "type": "function_call_output",
                        "call_id": call_id,
                        "output": (
                            f"Chunk ID: {call_id}\nWall time: 0.0100 seconds\nProcess exited with code 0\nOutput:\n{output}\n"
                        ),
                    }
                )
            reply = " ".join(rng.sample(pool, rng.randint(1, 6)))
            roll = rng.random()
            if roll < 0.02:  # a fake result the model wrote itself: no call ran
                fake = json.dumps(rng.choice(pool), ensure_ascii=False)
                reply = f'{{success: true, memory_type: "journal", content: {fake}}}' + reply
                planted["result-prefix"] += 1
            elif roll < 0.03:  # the call leaked as markup in the reply: nothing ran
                leak = json.dumps({"name": "exec_command", "arguments": {"cmd": f"cat {rng.choice(WORDS)}.txt"}})
                reply = f"{reply}\n<tool_call>{leak}</tool_call>"
                planted["tool-markup"] += 1
            if rng.random() < 0.5:
                rollout.item({"type": "reasoning", "summary": [], "encrypted_content": "gAAAA" + "y" * 400})
            rollout.event(
                {
                    "type": "item_completed",
                    "turn_id": turn_id,
                    "item": {"type": "AgentMessage", "content": [{"type": "Text", "text": reply}]},
                }
            )
            rollout.item(
                {
                    "type": "message",
                    "role": "assistant",
                    "status": "completed",
                    "id": f"msg_{turn:06d}",
                    "content": [{"type": "output_text", "text": reply, "annotations": []}],
                }
            )
            rollout.line("token_usage_record", {"turn_id": turn_id, "response_id": f"resp_{turn:06d}", "usage": usage})
            rollout.event({"type": "token_count", "info": {"total_token_usage": usage, "last_token_usage": usage}})
            rollout.event({"type": "task_complete", "turn_id": turn_id, "last_agent_message": reply})
    return planted


def report(options, path: Path, planted: dict[str, int]) -> None:
    """Measure the baseline and the scan on the generated file at `path` and print the figures."""
    print(
        f"rollout: {bench_runner.line_count(path):,} lines, {path.stat().st_size / 1e6:.1f} MB, "
        f"planted: {bench_runner.planted_text(planted)}"
    )
    bench_runner.compare(
        path, planted, options.runs, "json.loads", [sys.executable, "-c", BASELINE, str(path)], pairs=True
    )
    bench_runner.print_fix(path, "fixed.jsonl")


def main() -> None:
    parser = bench_runner.arguments(__doc__, "--events", 100_000, "lines in the generated rollout")
    bench_runner.run(parser, __file__, generate, "rollout-bench.jsonl", report)


if __name__ == "__main__":
    main()
