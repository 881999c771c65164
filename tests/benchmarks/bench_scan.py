"""Benchmark: `inspector scan --json` on a large session against plain `json.load`.

Run by hand from anywhere (pytest does not collect it):

    python tests/benchmarks/bench_scan.py [--messages 200000] [--keep]

It writes a deterministic OpenAI Chat session of N messages (about 75 MB for the default 200,000)
to a temporary directory: about 2% of the messages are assistant replies that start with a fake
JS-style `save_memory` result, about 4% of the real calls have extra closing braces in their
arguments, and about 1% of the replies leak a `web_search` call as markup (Hermes, GLM, DeepSeek
V3.1, Kimi K2, gpt-oss Harmony, Gemma 4 or a pythonic list). Then it runs, three times each and
each in its own process, a baseline that only `json.load`s the file and `python -m inspector scan
--json FILE`, and prints the best wall time and the peak memory (the child's own `ru_maxrss`) of
each, their ratios against the targets (time at most 3.0x, memory at most 2.5x json.load), and the
findings reported against the problems planted, by kind. It exits 0 whatever the numbers (it is a
report, not a test) unless a child crashes (exit 2 or more). `--keep` keeps the generated file and prints where it is.
`--runs N` runs each command N times instead of 3; the worst wall time, the CPU time (less
sensitive to other work on the machine) and the ratio of each run pair show the spread. `--stages`
adds the CPU time of each stage of the scan (`scan_stages.py`).

The file is generated in a child process: on Linux a child's `ru_maxrss` starts from its parent's
size (the memory it was forked from), so the measuring process must stay small.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TIME_TARGET, MEMORY_TARGET, RUNS = 3.0, 2.5, 3
ROOT = Path(__file__).resolve().parents[2]
WORDS = ("the a my your we it this that today tomorrow week run journal board plan memory note sister walk "
         "canal dentist interval coffee sleep tired proud happy anxious bug template email deploy test "
         "meeting garden birthday train ticket Leeds Lisbon Maya Sam really maybe just still again already "
         "went felt made fixed wrote moved called booked saved missed finished started tried wanted "
         "because but and so then later before after while about with without from into over naïve café").split()


def _tool(name: str, properties: dict, required: list[str]) -> dict:
    return {"type": "function", "function": {"name": name, "parameters": {
        "type": "object", "properties": properties, "required": required}}}


TOOLS = [
    _tool("save_memory", {"memory_type": {"type": "string", "enum": ["journal", "core", "fact"]},
                          "content": {"type": "string"}}, ["memory_type", "content"]),
    _tool("whiteboard", {"action": {"type": "string", "enum": ["create", "update", "get", "list", "delete"]},
                         "board_id": {"type": "string"}, "title": {"type": "string"}, "content": {"type": "string"}},
          ["action"]),
    _tool("web_search", {"query": {"type": "string"}}, ["query"]),
]
# Leaked tool-call markup of a few families (FORMATS.md §2), each a `web_search` call:
# {args} is the JSON arguments, {query} the query as text, {literal} as a Python string.
LEAKS = (
    '<tool_call>\n{{"name": "web_search", "arguments": {args}}}\n</tool_call>',
    "<tool_call>web_search\n<arg_key>query</arg_key>\n<arg_value>{query}</arg_value>\n</tool_call>",
    "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>web_search<｜tool▁sep｜>{args}<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
    "<|tool_calls_section_begin|><|tool_call_begin|>functions.web_search:0<|tool_call_argument_begin|>{args}"
    "<|tool_call_end|><|tool_calls_section_end|>",
    "<|channel|>commentary to=functions.web_search <|constrain|>json<|message|>{args}<|call|>",
    '<|tool_call>call:web_search{{query:<|"|>{query}<|"|>}}<tool_call|>',
    "[web_search(query={literal})]",
)
LEAK_STARTS = ("<tool_call>", "<｜tool▁calls▁begin｜>", "<|tool_calls_section_begin|>", "<|channel|>", "<|tool_call>",
               "[web_search(")


def generate(path: Path, count: int) -> dict[str, int]:
    """Write a session of `count` messages to `path`; return how many problems of each kind it holds."""
    rng = random.Random(7)
    pool = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 22))).capitalize() + rng.choice(".!?")
            for _ in range(4000)]

    def prose(low: int, high: int) -> str:
        sentences = rng.sample(pool, rng.randint(low, high))
        if rng.random() < 0.07:  # now and then a long reply with quoted paragraphs
            sentences += ['\n\n"' + s + '"' for s in rng.sample(pool, rng.randint(5, 25))]
        return " ".join(sentences)

    def real_call(call_id: str) -> tuple[dict, str]:
        name = rng.choice(("save_memory", "save_memory", "web_search", "whiteboard"))
        if name == "save_memory":  # always "fact": never the same call as a planted fake
            args = {"memory_type": "fact", "content": rng.choice(pool)}
            result = {"success": True, "id": "mem_" + call_id[5:], **args}
        elif name == "web_search":
            args = {"query": rng.choice(pool)[:60]}
            result = {"results": [{"title": rng.choice(pool), "url": f"https://example.org/{call_id}/{i}",
                                   "snippet": rng.choice(pool) + " " + rng.choice(pool)} for i in range(3)]}
        else:
            args = {"action": "update", "board_id": f"b-{rng.randint(1, 40)}", "content": "\n".join(rng.sample(pool, 4))}
            result = {"success": True, "type": "board_updated", "board_id": args["board_id"], "title": "Week plan"}
        arguments = json.dumps(args)
        if rng.random() < 0.04:  # seed 004: extra closing braces, so the call could not have run as sent
            arguments += "}}"
        return ({"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}},
                json.dumps(result))

    messages = [{"role": "system", "content": "You are Wren, a warm journaling companion. " + prose(3, 6)}]
    planted = {"result-prefix": 0, "malformed-arguments": 0, "tool-markup": 0}
    while len(messages) < count:
        exchange: list[dict] = [{"role": "user", "content": prose(1, 3)}]
        roll = rng.random()
        if roll < 0.25:  # real calls, each answered by its result, then a reply
            made = [real_call(f"call_{len(messages) + i:07d}") for i in range(rng.choice((1, 1, 2)))]
            exchange.append({"role": "assistant", "content": None, "tool_calls": [call for call, _ in made]})
            exchange += [{"role": "tool", "tool_call_id": call["id"], "content": result} for call, result in made]
            exchange.append({"role": "assistant", "content": prose(1, 5)})
        elif roll < 0.302:  # a fake result the model wrote itself: no call ran
            fake = json.dumps(rng.choice(pool), ensure_ascii=False)
            prefix = f'{{success: true, memory_type: "{rng.choice(("journal", "core"))}", content: {fake}}}'
            exchange.append({"role": "assistant", "content": prefix + rng.choice(("", " ", "\n\n")) + prose(1, 6)})
        elif roll < 0.312:  # a call leaked as markup in the reply: nothing ran
            query = rng.choice(pool)[:60]
            block = rng.choice(LEAKS).format(args=json.dumps({"query": query}, ensure_ascii=False), query=query,
                                             literal=json.dumps(query))
            exchange.append({"role": "assistant", "content": prose(1, 3) + "\n\n" + block
                             + rng.choice(("", "\n\n" + prose(1, 3)))})
        else:
            exchange.append({"role": "assistant", "content": prose(1, 7)})
        if len(exchange) > count - len(messages):  # the last exchange must fit whole: no unanswered call
            exchange = [{"role": "user", "content": prose(1, 4)}, {"role": "assistant", "content": prose(1, 8)}]
        exchange = exchange[:count - len(messages)]
        planted["result-prefix"] += sum(1 for m in exchange if str(m["content"]).startswith("{success"))
        planted["tool-markup"] += sum(1 for m in exchange if m["role"] == "assistant"
                                      and any(start in (m["content"] or "") for start in LEAK_STARTS))
        planted["malformed-arguments"] += sum(call["function"]["arguments"].endswith("}}}")
                                              for m in exchange for call in m.get("tool_calls") or ())
        messages += exchange
    with path.open("w", encoding="utf-8") as out:
        out.write('{"model": "gemini-2.5-flash", "tools": ' + json.dumps(TOOLS) + ', "messages": [\n')
        out.write(",\n".join(json.dumps(m, ensure_ascii=False) for m in messages))
        out.write("\n]}\n")
    return planted


def measure(command: list[str], allowed: tuple[int, ...]) -> tuple[float, float, float]:
    """Run `command` with stdout discarded; return wall seconds, CPU seconds (user and system) and peak
    RSS in MB. Exits on a crash."""
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=errors, cwd=ROOT)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - start
        process.returncode = code = os.waitstatus_to_exitcode(status)
        if code not in allowed:
            errors.seek(0)
            sys.exit(f"{' '.join(command[1:4])} ... exited {code}:\n{errors.read().decode('utf-8', 'replace')}")
    cpu = usage.ru_utime + usage.ru_stime
    return elapsed, cpu, usage.ru_maxrss / (1024 * 1024 if sys.platform == "darwin" else 1024)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=200_000, help="messages in the generated session")
    parser.add_argument("--keep", action="store_true", help="keep the generated file and print its path")
    parser.add_argument("--runs", type=int, default=RUNS, help="interleaved runs of each command (best is compared)")
    parser.add_argument("--stages", action="store_true", help="also print the CPU time of each stage of the scan")
    parser.add_argument("--generate-only", metavar="PATH", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.generate_only:  # the child that writes the file
        print(json.dumps(generate(Path(options.generate_only), options.messages)))
        return
    path = Path(tempfile.mkdtemp(prefix="inspector-bench-")) / "bench.openai.json"
    try:
        made = subprocess.run([sys.executable, __file__, "--messages", str(options.messages), "--generate-only",
                               str(path)], capture_output=True, text=True, check=True)
        planted = json.loads(made.stdout)
        kinds = ", ".join(f"{n:,} {kind}" for kind, n in planted.items())
        print(f"session: {options.messages:,} messages, {path.stat().st_size / 1e6:.1f} MB, planted: {kinds}")
        baseline = [sys.executable, "-c", "import json,sys; json.load(open(sys.argv[1]))", str(path)]
        scan = [sys.executable, "-m", "inspector", "scan", "--json", str(path)]
        runs = {"json.load": [], "scan --json": []}
        for _ in range(options.runs):  # interleaved, so drift in the machine's load hits both alike
            runs["json.load"].append(measure(baseline, (0,)))
            runs["scan --json"].append(measure(scan, (0, 1)))
        best = {name: (min(t for t, _, _ in r), max(m for _, _, m in r)) for name, r in runs.items()}
        report = subprocess.run(scan, capture_output=True, text=True, cwd=ROOT)
        if report.returncode not in (0, 1):
            sys.exit(f"inspector scan exited {report.returncode}:\n{report.stderr}")
        found = json.loads(report.stdout)["summary"]["by_kind"]
        print(f"\n{'':12}{'seconds':>10}{'worst':>8}{'CPU s':>8}{'peak MB':>10}   (best of {options.runs}; CPU of the best)")
        for name, (seconds, megabytes) in best.items():
            worst = max(t for t, _, _ in runs[name])
            cpu = next(c for t, c, _ in runs[name] if t == seconds)
            print(f"{name:12}{seconds:>10.2f}{worst:>8.2f}{cpu:>8.2f}{megabytes:>10.0f}")
        ratios = sorted(s[0] / b[0] for s, b in zip(runs["scan --json"], runs["json.load"]))
        print(f"time ratio of each run pair: {', '.join(f'{r:.2f}' for r in ratios)}\n")
        for label, index, target in (("time", 0, TIME_TARGET), ("memory", 1, MEMORY_TARGET)):
            ratio = best["scan --json"][index] / best["json.load"][index]
            verdict = "ok" if ratio <= target else "OVER TARGET"
            print(f"scan {label + ':':8}{ratio:.2f}x json.load (target <= {target}x) {verdict}")
        for kind in sorted(planted.keys() | found.keys()):
            reported, made_count = found.get(kind, 0), planted.get(kind, 0)
            print(f"{kind + ':':21}{reported:,} reported, {made_count:,} planted{'' if reported == made_count else '  MISMATCH'}")
        if options.stages:
            print()
            subprocess.run([sys.executable, str(Path(__file__).with_name("scan_stages.py")), str(path)], cwd=ROOT, check=True)
    finally:
        if options.keep:
            print(f"kept {path}")
        else:
            shutil.rmtree(path.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
