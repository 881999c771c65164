"""Benchmark: `inspector scan --json` on a large OTLP JSON trace of model calls that each repeat
their conversation's growing history, against decoding the file with `json.load`.

Run by hand from anywhere (pytest does not collect it):

    python tests/benchmarks/bench_otel.py [--traces 200] [--calls 50] [--convention genai|openinference]
                                          [--runs 3] [--keep]

A child process writes a deterministic OTLP JSON export request (as
`sessions/generate/otel_traces.py` records one: compact message JSON in the attributes) of
TRACES x CALLS model-call spans (10,000 by default): in each trace, call k's input is the whole
history so far (a system prompt, the user's questions, the assistant's answers and calls, the tool
results) and its output is one assistant message, in the GenAI convention (`gen_ai.input.messages`
/ `gen_ai.output.messages`) or OpenInference's flattened `llm.input_messages.N.message.*`. About
2% of the answers start with a fake JS-style result, about 1% leak a call as Hermes markup, and
about 4% of the calls have broken arguments (answered by an error); each must be reported once,
however many later calls repeat it. Then, interleaved and each in its own process, a baseline
that `json.load`s the file and `python -m inspector scan --json FILE`; it prints the best and worst
wall time, the CPU time and the peak memory (the child's own `ru_maxrss`) of each, their ratios
against the targets (time at most 3.0x, memory at most 2.5x), and the findings against the
problems planted. It exits 0 whatever the numbers (a report, not a test) unless a child crashes.
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
BASELINE = "import json, sys\nvalue = json.load(open(sys.argv[1], encoding='utf-8'))"
TOOL = {
    "type": "function",
    "function": {
        "name": "read_file",
        "description": "Read a file.",
        "parameters": {"type": "object", "properties": {"file_path": {"type": "string"}}, "required": ["file_path"]},
    },
}


def text(role: str, content: str) -> dict:
    """A message in the GenAI convention: role and parts."""
    return {"role": role, "parts": [{"type": "text", "content": content}]}


def attribute(key: str, value: str) -> dict:
    return {"key": key, "value": {"stringValue": value}}


def openinference(side: str, messages: list[dict]) -> list[dict]:
    """GenAI-convention messages as OpenInference's flattened attributes."""
    out = []
    for n, message in enumerate(messages):
        prefix = f"llm.{side}_messages.{n}.message."
        out.append(attribute(prefix + "role", message["role"]))
        for part in message["parts"]:
            if part["type"] == "text":
                out.append(attribute(prefix + "content", part["content"]))
            elif part["type"] == "tool_call":
                call = prefix + "tool_calls.0.tool_call."
                out += [
                    attribute(call + "id", part["id"]),
                    attribute(call + "function.name", part["name"]),
                    attribute(call + "function.arguments", part["arguments"]),
                ]
            else:
                out += [attribute(prefix + "tool_call_id", part["id"]), attribute(prefix + "content", part["response"])]
    return out


def generate(path: Path, traces: int, calls: int, convention: str) -> dict[str, int]:
    """Write the trace to `path`; return how many problems of each kind it holds."""
    rng = random.Random(13)
    pool = [
        " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 22))).capitalize() + rng.choice(".!?")
        for _ in range(4000)
    ]
    planted = {"result-prefix": 0, "malformed-arguments": 0, "tool-markup": 0}
    spans = []
    for trace in range(traces):
        history = [text("system", "You help with notes."), text("user", rng.choice(pool))]
        for call in range(calls):
            roll = rng.random()
            if roll < 0.3 and call < calls - 1:  # the last answer of a trace is text: no call left unanswered
                call_id = f"call_{trace}_{call}"
                arguments = json.dumps({"file_path": f"notes/{rng.choice(WORDS)}.txt"})
                if rng.random() < 0.04:  # extra closing braces
                    arguments += "}}"
                    planted["malformed-arguments"] += 1
                output = {
                    "role": "assistant",
                    "parts": [{"type": "tool_call", "id": call_id, "name": "read_file", "arguments": arguments}],
                }
                answer = {
                    "role": "tool",
                    "parts": [
                        {
                            "type": "tool_call_response",
                            "id": call_id,
                            "response": "\n".join(rng.sample(pool, rng.randint(1, 6))),
                        }
                    ],
                }
            else:
                reply = " ".join(rng.sample(pool, rng.randint(1, 4)))
                if roll > 0.98:
                    fake = json.dumps(rng.choice(pool))
                    reply = f'{{success: true, memory_type: "journal", content: {fake}}}' + reply
                    planted["result-prefix"] += 1
                elif roll > 0.97:
                    leak = json.dumps({"name": "read_file", "arguments": {"file_path": f"{rng.choice(WORDS)}.txt"}})
                    reply = f"{reply}\n<tool_call>{leak}</tool_call>"
                    planted["tool-markup"] += 1
                output, answer = text("assistant", reply), text("user", rng.choice(pool))
            start = 1_767_225_600_000_000_000 + (trace * calls + call) * 1_000_000
            if convention == "genai":
                attributes = [
                    attribute("gen_ai.operation.name", "chat"),
                    attribute("gen_ai.input.messages", json.dumps(history, separators=(",", ":"))),
                    attribute("gen_ai.output.messages", json.dumps([output], separators=(",", ":"))),
                    attribute("gen_ai.tool.definitions", json.dumps([{"type": "function"} | TOOL["function"]])),
                ]
            else:
                attributes = (
                    [
                        attribute("openinference.span.kind", "LLM"),
                        attribute("llm.tools.0.tool.json_schema", json.dumps(TOOL)),
                    ]
                    + openinference("input", history)
                    + openinference("output", [output])
                )
            spans.append(
                {
                    "traceId": f"{trace:032x}",
                    "spanId": f"{trace * calls + call:016x}",
                    "name": "chat scripted",
                    "kind": "SPAN_KIND_CLIENT",
                    "startTimeUnixNano": str(start),
                    "endTimeUnixNano": str(start + 500_000),
                    "attributes": attributes,
                    "status": {},
                }
            )
            history += [output, answer]
    document = {
        "resourceSpans": [
            {
                "resource": {"attributes": [attribute("service.name", "bench")]},
                "scopeSpans": [{"scope": {"name": "bench"}, "spans": spans}],
            }
        ]
    }
    path.write_text(json.dumps(document, ensure_ascii=False) + "\n", encoding="utf-8")
    return planted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--traces", type=int, default=200, help="traces (conversations) in the file")
    parser.add_argument("--calls", type=int, default=50, help="model calls (spans) per trace")
    parser.add_argument("--convention", choices=("genai", "openinference"), default="genai")
    parser.add_argument("--keep", action="store_true", help="keep the generated file and print its path")
    parser.add_argument("--runs", type=int, default=RUNS, help="interleaved runs of each command (best is compared)")
    parser.add_argument("--generate-only", metavar="PATH", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.generate_only:  # the child that writes the file
        print(json.dumps(generate(Path(options.generate_only), options.traces, options.calls, options.convention)))
        return
    path = Path(tempfile.mkdtemp(prefix="inspector-bench-")) / "bench.otel.json"
    try:
        made = subprocess.run(
            [
                sys.executable,
                __file__,
                "--traces",
                str(options.traces),
                "--calls",
                str(options.calls),
                "--convention",
                options.convention,
                "--generate-only",
                str(path),
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        planted = json.loads(made.stdout)
        kinds = ", ".join(f"{n:,} {kind}" for kind, n in planted.items())
        print(
            f"trace: {options.traces * options.calls:,} model-call spans ({options.convention}), "
            f"{path.stat().st_size / 1e6:.1f} MB, planted: {kinds}"
        )
        baseline = [sys.executable, "-c", BASELINE, str(path)]
        scan = [sys.executable, "-m", "inspector", "scan", "--json", "--no-cache", str(path)]
        runs = {"json.load": [], "scan --json": []}
        for _ in range(options.runs):  # interleaved, so drift in the machine's load hits both alike
            runs["json.load"].append(measure(baseline, (0,)))
            runs["scan --json"].append(measure(scan, (0, 1)))
        report = subprocess.run(scan, capture_output=True, text=True, cwd=ROOT)
        if report.returncode not in (0, 1):
            sys.exit(f"inspector scan exited {report.returncode}:\n{report.stderr}")
        found = json.loads(report.stdout)["summary"]["by_kind"]
        print(
            f"\n{'':12}{'seconds':>10}{'worst':>8}{'CPU s':>8}{'peak MB':>10}   (best of {options.runs}; CPU of the best)"
        )
        best = {}
        for name, measured in runs.items():
            seconds = min(t for t, _, _ in measured)
            cpu = next(c for t, c, _ in measured if t == seconds)
            best[name] = (seconds, max(m for _, _, m in measured))
            print(f"{name:12}{seconds:>10.2f}{max(t for t, _, _ in measured):>8.2f}{cpu:>8.2f}{best[name][1]:>10.0f}")
        for label, index, target in (("time", 0, TIME_TARGET), ("memory", 1, MEMORY_TARGET)):
            ratio = best["scan --json"][index] / best["json.load"][index]
            print(
                f"scan {label + ':':8}{ratio:.2f}x json.load (target <= {target}x) {'ok' if ratio <= target else 'OVER TARGET'}"
            )
        for kind in sorted(planted.keys() | found.keys()):
            reported, made_count = found.get(kind, 0), planted.get(kind, 0)
            print(
                f"{kind + ':':21}{reported:,} reported, {made_count:,} planted{'' if reported == made_count else '  MISMATCH'}"
            )
    finally:
        if options.keep:
            print(f"kept {path}")
        else:
            shutil.rmtree(path.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
