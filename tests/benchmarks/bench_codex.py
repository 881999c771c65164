"""Benchmark: `inspector scan --json` on a large Codex CLI rollout against decoding its lines with `json.loads`.

Run by hand from anywhere (pytest does not collect it):

    python tests/benchmarks/bench_codex.py [--events 100000] [--runs 3] [--keep]

A child process writes a deterministic rollout of N lines shaped as Codex 0.169 writes them
(compact `{"timestamp", "ordinal", "type", "payload"}` lines; see
`tests/fixtures/tool-samples/codex.rollout.jsonl`): each user turn has its `turn_context` and
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
from bench_scan import ROOT, WORDS, measure  # noqa: E402 - the same run measurement as the JSON benchmark

TIME_TARGET, MEMORY_TARGET, RUNS = 3.0, 2.5, 3
BASELINE = "import json, sys\nrecords = [json.loads(line) for line in open(sys.argv[1], encoding='utf-8')]"
SESSION_ID = "01a20b89-3790-7752-a0ad-e1b340dd9094"


class Rollout:
    """Writes the lines of one rollout, numbering them as Codex does (`ordinal`)."""

    def __init__(self, out) -> None:
        self.out = out
        self.count = 0

    def line(self, kind: str, payload: dict, metadata: dict | None = None) -> None:
        seconds = self.count // 20
        record = {"timestamp": f"2026-11-24T{3 + seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}.000Z",
                  "ordinal": self.count, "type": kind, "payload": payload}
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
    pool = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 22))).capitalize() + rng.choice(".!?")
            for _ in range(4000)]
    planted = {"result-prefix": 0, "malformed-arguments": 0, "tool-markup": 0}
    usage = {"input_tokens": 500, "cached_input_tokens": 0, "output_tokens": 40, "reasoning_output_tokens": 0,
             "total_tokens": 540}
    with path.open("w", encoding="utf-8") as out:
        rollout = Rollout(out)
        rollout.line("session_meta", {"id": SESSION_ID, "timestamp": "2026-11-24T03:00:00.000Z", "cwd": "/tmp/cx-work",
                                      "originator": "codex_exec", "cli_version": "0.169.0", "model_provider": "openai",
                                      "base_instructions": {"text": " ".join(rng.sample(pool, 60))}})
        rollout.item({"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "<environment_context>\n  <cwd>/tmp/cx-work</cwd>\n</environment_context>"}]})
        turn = 0
        while rollout.count < count:
            turn += 1
            turn_id = f"turn-{turn:06d}"
            rollout.event({"type": "task_started", "turn_id": turn_id, "model_context_window": 272000})
            rollout.line("turn_context", {"turn_id": turn_id, "cwd": "/tmp/cx-work", "approval_policy": "never",
                                          "model": "gpt-5-codex", "summary": "auto"})
            request = " ".join(rng.sample(pool, rng.randint(1, 3)))
            rollout.item({"type": "message", "role": "user", "content": [{"type": "input_text", "text": request}]})
            rollout.event({"type": "item_completed", "turn_id": turn_id, "item": {
                "type": "UserMessage", "content": [{"type": "text", "text": request}]}})
            for step in range(rng.choice((0, 0, 1, 1, 2, 3))):
                call_id = f"call_{turn:06d}_{step}"
                command = f"grep -n {rng.choice(WORDS)} notes/{rng.choice(WORDS)}.txt"
                arguments = json.dumps({"cmd": command})
                if rng.random() < 0.04:  # seed 004: extra closing braces, so the call could not run as sent
                    arguments += "}}"
                    planted["malformed-arguments"] += 1
                output = "\n".join(rng.sample(pool, rng.randint(1, 12)))
                if rng.random() < 0.5:
                    rollout.item({"type": "reasoning", "summary": [], "encrypted_content": "gAAAA" + "x" * 400})
                rollout.item({"type": "function_call", "name": "exec_command", "arguments": arguments,
                              "call_id": call_id})
                rollout.line("token_usage_record", {"turn_id": turn_id, "response_id": f"resp_{call_id}", "usage": usage})
                rollout.event({"type": "token_count", "info": {"total_token_usage": usage, "last_token_usage": usage}})
                rollout.event({"type": "item_completed", "turn_id": turn_id, "item": {
                    "type": "CommandExecution", "id": call_id, "command": ["/bin/bash", "-lc", command],
                    "aggregated_output": output, "exit_code": 0}})
                rollout.item({"type": "function_call_output", "call_id": call_id, "output": (
                    f"Chunk ID: {call_id}\nWall time: 0.0100 seconds\nProcess exited with code 0\nOutput:\n{output}\n")})
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
            rollout.event({"type": "item_completed", "turn_id": turn_id, "item": {
                "type": "AgentMessage", "content": [{"type": "Text", "text": reply}]}})
            rollout.item({"type": "message", "role": "assistant", "status": "completed", "id": f"msg_{turn:06d}",
                          "content": [{"type": "output_text", "text": reply, "annotations": []}]})
            rollout.line("token_usage_record", {"turn_id": turn_id, "response_id": f"resp_{turn:06d}", "usage": usage})
            rollout.event({"type": "token_count", "info": {"total_token_usage": usage, "last_token_usage": usage}})
            rollout.event({"type": "task_complete", "turn_id": turn_id, "last_agent_message": reply})
    return planted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000, help="lines in the generated rollout")
    parser.add_argument("--keep", action="store_true", help="keep the generated file and print its path")
    parser.add_argument("--runs", type=int, default=RUNS, help="interleaved runs of each command (best is compared)")
    parser.add_argument("--generate-only", metavar="PATH", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.generate_only:  # the child that writes the file
        print(json.dumps(generate(Path(options.generate_only), options.events)))
        return
    path = Path(tempfile.mkdtemp(prefix="inspector-bench-")) / "rollout-bench.jsonl"
    try:
        made = subprocess.run([sys.executable, __file__, "--events", str(options.events), "--generate-only",
                               str(path)], capture_output=True, text=True, check=True)
        planted = json.loads(made.stdout)
        lines = sum(1 for _ in path.open(encoding="utf-8"))
        kinds = ", ".join(f"{n:,} {kind}" for kind, n in planted.items())
        print(f"rollout: {lines:,} lines, {path.stat().st_size / 1e6:.1f} MB, planted: {kinds}")
        baseline = [sys.executable, "-c", BASELINE, str(path)]
        scan = [sys.executable, "-m", "inspector", "scan", "--json", str(path)]
        runs = {"json.loads": [], "scan --json": []}
        for _ in range(options.runs):  # interleaved, so drift in the machine's load hits both alike
            runs["json.loads"].append(measure(baseline, (0,)))
            runs["scan --json"].append(measure(scan, (0, 1)))
        report = subprocess.run(scan, capture_output=True, text=True, cwd=ROOT)
        if report.returncode not in (0, 1):
            sys.exit(f"inspector scan exited {report.returncode}:\n{report.stderr}")
        found = json.loads(report.stdout)["summary"]["by_kind"]
        print(f"\n{'':12}{'seconds':>10}{'worst':>8}{'CPU s':>8}{'peak MB':>10}   (best of {options.runs}; CPU of the best)")
        best = {}
        for name, measured in runs.items():
            seconds = min(t for t, _, _ in measured)
            cpu = next(c for t, c, _ in measured if t == seconds)
            best[name] = (seconds, max(m for _, _, m in measured))
            print(f"{name:12}{seconds:>10.2f}{max(t for t, _, _ in measured):>8.2f}{cpu:>8.2f}{best[name][1]:>10.0f}")
        ratios = sorted(s[0] / b[0] for s, b in zip(runs["scan --json"], runs["json.loads"]))
        print(f"time ratio of each run pair: {', '.join(f'{r:.2f}' for r in ratios)}\n")
        for label, index, target in (("time", 0, TIME_TARGET), ("memory", 1, MEMORY_TARGET)):
            ratio = best["scan --json"][index] / best["json.loads"][index]
            print(f"scan {label + ':':8}{ratio:.2f}x json.loads (target <= {target}x) {'ok' if ratio <= target else 'OVER TARGET'}")
        for kind in sorted(planted.keys() | found.keys()):
            reported, made_count = found.get(kind, 0), planted.get(kind, 0)
            print(f"{kind + ':':21}{reported:,} reported, {made_count:,} planted{'' if reported == made_count else '  MISMATCH'}")
        seconds, _, megabytes = measure([sys.executable, "-m", "inspector", "fix", str(path), "--accept", "all",
                                         "-o", str(path.with_name("fixed.jsonl"))], (0, 1))
        print(f"\nfix --accept all -o NEW: {seconds:.2f} s, peak {megabytes:.0f} MB")
    finally:
        if options.keep:
            print(f"kept {path}")
        else:
            shutil.rmtree(path.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
