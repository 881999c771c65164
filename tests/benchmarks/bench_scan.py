"""Benchmark: `inspector scan --json` on a large session against plain `json.load`.

Run by hand from anywhere (pytest does not collect it):

    python tests/benchmarks/bench_scan.py [--messages 200000] [--keep]

It writes a deterministic OpenAI Chat session of N messages (about 75 MB for the default 200,000)
to a temporary directory: about 2% of the messages are assistant replies that start with a fake
JS-style `save_memory` result, about 4% of the real calls have extra closing braces in their
arguments, and about 1% of the replies leak a `web_search` call as markup (Hermes, GLM, DeepSeek
V3.1, Kimi K2, gpt-oss Harmony, Gemma 4 or a pythonic list), and about 1% of the exchanges hold
one of the failures the later detectors find (a success claimed after a failed save, a result
naming another tool than its call, the same failing search three times, a result written as markup
in the reply, a search announced and never made). Then it runs, three times each and
each in its own process, a baseline that only `json.load`s the file and `python -m inspector scan
--json FILE`, and prints the best wall time and the peak memory (the child's own `ru_maxrss`) of
each, their ratios against the targets (time at most 3.0x, memory at most 2.5x json.load), and the
findings reported against the problems planted, by kind. It exits 0 whatever the numbers (it is a
report, not a test) unless a child crashes (exit 2 or more). `--keep` keeps the generated file and prints where it is.
`--runs N` runs each command N times instead of 3; the worst wall time, the CPU time (less
sensitive to other work on the machine) and the ratio of each run pair show the spread. `--stages`
adds the CPU time of each stage of the scan (`scan_stages.py`); `--fix` times `inspector fix
--accept all -o` against reading the file with `json.load` and writing it with `json.dumps`
(`REWRITE`), target 1.3x. Measured with `--fix` on 2 shared cores (load average 1 to 3), best of
3: `fix` 3.31 s against the rewrite's 1.43 s, 2.32x (memory 1.00x), where writing every message
again cost 3.63 s, 2.53x, before the writer copied untouched messages from the file's bytes; the
scan alone is 2.49 s of it (`scan --json`), the write about 0.8 s (0.3 s of it the splice).

The file is generated in a child process: on Linux a child's `ru_maxrss` starts from its parent's
size (the memory it was forked from), so the measuring process must stay small.

Measured (default size, CPU seconds, best of 3, on a busy 2-core machine): `json.load` 0.62 to
0.65 s; the scan 2.59 s in all (`scan_stages.py`: 2.18 s of stages, 1.58 s of them detecting;
the `secret` gate 0.63 s, `claimed-success` 0.215 s) before the gate found keys before separators
by splitting the texts at them and `claimed-success` took the results that may report an error
from `tool-error`'s list, 2.44 s after (2.15 s of stages, 1.53 s detecting; `secret` 0.57 s,
`claimed-success` 0.196 s): about 3.9 times `json.load` in CPU time either way. What is left is
Python run per turn or per call (each detector's loop) and a few passes in C over every text
(joining, translating, searching): a regular expression in Python's `re` reads about 6 ns a
byte even for a single character class, 5 to 20 times slower than `bytes.find`, `count` or
`translate`, so it is no cheaper first pass than the substring tests the detectors already make.

Four detectors were then cut (CPU seconds, best of 9 `scan_stages.py` runs and of 9 runs of the
detectors alone in scan order, on the same machine with a load average of 2 to 2.7; the two sets
differ by up to 0.05 s): `tool-markup` 0.170-0.174 s -> 0.057-0.069 s (five one-character searches
rule out a reply holding none of `<`, `[`, backticks, `{`, `>`, and every reply is judged once a
scan, in a pass `result-prefix` shares: `result-prefix` 0.289-0.343 s -> 0.342-0.355 s, that pass
of some 0.065 s included); `claimed-success` 0.249-0.269 s -> 0.208-0.230 s (less Python a result:
JSON decoded without `json.loads`'s searches for white space, no generators); `narrated-action`
0.125-0.160 s -> 0.126-0.153 s. The four together: 0.94 s -> 0.80 s. What is left is the parsing of
the 4,019 fake results and the inference of their tools (some 35 us each, spread over many small
steps) and a few substring searches of every reply's and every result's text.

Then the `secret` look read each batch of texts in one pass of an RE2 automaton (a key's last word
before its separator, a fixed string, a named pattern's start within 15 run characters, or a run
of 32 or more, the only match looked at in Python) where it made six passes in C and a Python step
for each run of 15 name characters: its CPU, the code before and after back to back
(`scan_stages.py`), 0.745 s -> 0.472 s; the whole scan, farm-bench, median of 7 pairs, 0.90x the
code before (memory +3 MB, RE2's library).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_runner
from bench_runner import ROOT


def _tool(name: str, properties: dict, required: list[str]) -> dict:
    return {
        "type": "function",
        "function": {"name": name, "parameters": {"type": "object", "properties": properties, "required": required}},
    }


TOOLS = [
    _tool(
        "save_memory",
        {"memory_type": {"type": "string", "enum": ["journal", "core", "fact"]}, "content": {"type": "string"}},
        ["memory_type", "content"],
    ),
    _tool(
        "whiteboard",
        {
            "action": {"type": "string", "enum": ["create", "update", "get", "list", "delete"]},
            "board_id": {"type": "string"},
            "title": {"type": "string"},
            "content": {"type": "string"},
        },
        ["action"],
    ),
    _tool("web_search", {"query": {"type": "string"}}, ["query"]),
]
# Leaked tool-call markup of a few families, each a `web_search` call:
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
LEAK_STARTS = (
    "<tool_call>",
    "<｜tool▁calls▁begin｜>",
    "<|tool_calls_section_begin|>",
    "<|channel|>",
    "<|tool_call>",
    "[web_search(",
)


FAILURES = ("claimed-success", "mismatched-result", "repeated-call", "fake-result-block", "narrated-action")


def planted_failure(kind: str, call_id: str, words: str) -> list[dict]:
    """The messages after a user's of an exchange holding one failure of `kind` (the last message
    is marked with it, under "planted"; the mark is taken off before the file is written)."""

    def call(number: int, name: str, arguments: dict) -> dict:
        return {
            "id": f"{call_id}_{number}",
            "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments)},
        }

    def answer(number: int, content: dict, name: str | None = None) -> dict:
        message = {"role": "tool", "tool_call_id": f"{call_id}_{number}", "content": json.dumps(content)}
        return {**message, "name": name} if name else message

    memory = {"memory_type": "fact", "content": words[:80]}
    if kind == "claimed-success":  # the save failed, and the reply says it was saved
        messages = [
            {"role": "assistant", "content": None, "tool_calls": [call(0, "save_memory", memory)]},
            answer(0, {"error": "quota exceeded for this user"}),
            {"role": "assistant", "content": "I've saved that to your journal."},
        ]
    elif kind == "mismatched-result":  # the answer names another tool than the call it answers
        messages = [
            {"role": "assistant", "content": None, "tool_calls": [call(0, "web_search", {"query": words[:60]})]},
            answer(0, {"results": []}, name="whiteboard"),
            {"role": "assistant", "content": "Nothing came up for that."},
        ]
    elif kind == "repeated-call":  # the same search three times, the same error each time
        messages = []
        for number in range(3):
            messages += [
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [call(number, "web_search", {"query": "opening hours"})],
                },
                answer(number, {"error": "rate limited"}),
            ]
        messages.append({"role": "assistant", "content": "The search keeps failing, sorry: I could not look it up."})
    elif kind == "fake-result-block":  # a result written as markup in the reply: no tool ran
        messages = [
            {
                "role": "assistant",
                "content": "Looking it up.\n<tool_response>\n"
                + json.dumps({"results": [{"title": words[:40]}]})
                + "\n</tool_response>\nHere is what I found: "
                + words,
            }
        ]
    else:  # narrated-action: the reply announces a search and makes no call; the person prods
        messages = [
            {"role": "assistant", "content": "Good question. Let me search for that now."},
            {"role": "user", "content": "go on"},
            {"role": "assistant", "content": words},
        ]
        messages[0]["planted"] = kind
        return messages
    messages[-1]["planted"] = kind
    return messages


def generate(path: Path, count: int) -> dict[str, int]:
    """Write a session of `count` messages to `path`; return how many problems of each kind it holds."""
    rng = random.Random(7)
    pool = bench_runner.word_pool(rng)

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
            result = {
                "results": [
                    {
                        "title": rng.choice(pool),
                        "url": f"https://example.org/{call_id}/{i}",
                        "snippet": rng.choice(pool) + " " + rng.choice(pool),
                    }
                    for i in range(3)
                ]
            }
        else:
            args = {
                "action": "update",
                "board_id": f"b-{rng.randint(1, 40)}",
                "content": "\n".join(rng.sample(pool, 4)),
            }
            result = {"success": True, "type": "board_updated", "board_id": args["board_id"], "title": "Week plan"}
        arguments = json.dumps(args)
        if rng.random() < 0.04:  # extra closing braces, so the call could not have run as sent
            arguments += "}}"
        return (
            {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}},
            json.dumps(result),
        )

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
            block = rng.choice(LEAKS).format(
                args=json.dumps({"query": query}, ensure_ascii=False), query=query, literal=json.dumps(query)
            )
            exchange.append(
                {"role": "assistant", "content": prose(1, 3) + "\n\n" + block + rng.choice(("", "\n\n" + prose(1, 3)))}
            )
        elif roll < 0.322:  # one of the failures the later detectors find, in turn
            exchange += planted_failure(rng.choice(FAILURES), f"call_{len(messages):07d}", prose(1, 3))
        else:
            exchange.append({"role": "assistant", "content": prose(1, 7)})
        if len(exchange) > count - len(messages):  # the last exchange must fit whole: no unanswered call
            exchange = [{"role": "user", "content": prose(1, 4)}, {"role": "assistant", "content": prose(1, 8)}]
        exchange = exchange[: count - len(messages)]
        for message in exchange:
            if "planted" in message:
                kind = message.pop("planted")
                planted[kind] = planted.get(kind, 0) + 1
        planted["result-prefix"] += sum(1 for m in exchange if str(m["content"]).startswith("{success"))
        planted["tool-markup"] += sum(
            1
            for m in exchange
            if m["role"] == "assistant" and any(start in (m["content"] or "") for start in LEAK_STARTS)
        )
        planted["malformed-arguments"] += sum(
            call["function"]["arguments"].endswith("}}}") for m in exchange for call in m.get("tool_calls") or ()
        )
        messages += exchange
    # the failed save before each claimed success and the three failed searches of each loop
    planted["tool-error"] = planted.get("claimed-success", 0) + 3 * planted.get("repeated-call", 0)
    with path.open("w", encoding="utf-8") as out:
        out.write('{"model": "gemini-2.5-flash", "tools": ' + json.dumps(TOOLS) + ', "messages": [\n')
        out.write(",\n".join(json.dumps(m, ensure_ascii=False) for m in messages))
        out.write("\n]}\n")
    return planted


def report(options, path: Path, planted: dict[str, int]) -> None:
    """Measure the baseline and the scan on the generated file at `path` and print the figures."""
    print(
        f"session: {options.size:,} messages, {path.stat().st_size / 1e6:.1f} MB, "
        f"planted: {bench_runner.planted_text(planted)}"
    )
    baseline = [sys.executable, "-c", "import json,sys; json.load(open(sys.argv[1]))", str(path)]
    extra = bench_runner.fix_commands(path, REWRITE, ".json") if options.fix else {}
    measured = bench_runner.compare(path, planted, options.runs, "json.load", baseline, extra=extra, pairs=True)
    if options.fix:
        bench_runner.print_fix_target(measured)
    if options.stages:
        print()
        subprocess.run(
            [sys.executable, str(Path(__file__).with_name("scan_stages.py")), str(path)], cwd=ROOT, check=True
        )


# The file decoded and encoded again as one document (UTF-8 as it is), as `json` does it fastest.
REWRITE = (
    "import json,sys\n"
    "value = json.load(open(sys.argv[1], encoding='utf-8'))\n"
    "open(sys.argv[2], 'w', encoding='utf-8').write(json.dumps(value, ensure_ascii=False))"
)


def main() -> None:
    parser = bench_runner.arguments(__doc__, "--messages", 200_000, "messages in the generated session")
    parser.add_argument("--stages", action="store_true", help="also print the CPU time of each stage of the scan")
    parser.add_argument("--fix", action="store_true", help="also time `inspector fix --accept all -o`")
    bench_runner.run(parser, __file__, generate, "bench.openai.json", report)


if __name__ == "__main__":
    main()
