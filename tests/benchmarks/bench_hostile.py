"""Benchmark: `inspector scan --json` on hostile text against clean prose of the same size.

Run by hand from anywhere (pytest does not collect it):

    python tests/benchmarks/bench_hostile.py [--runs 3] [--sizes 100000,1000000] [--timeout 60] [--only NAME]

For each case (the worst input found for each detector and markup family: an unclosed string of
escaped quotes, unclosed comments, long words, JS-style objects run together, repeated start
markers of each family, a fenced argument string of white space, ...) it writes an OpenAI Chat
Completions session (`{"messages": [...], "tools": [...]}`) holding the text as an assistant reply
or as a call's `arguments`, at each size, to a temporary directory, runs `python -m inspector
scan --json FILE` in its own process `--runs` times (best wall time kept; a run over `--timeout`
seconds is stopped and shown as "> N s"), and prints: case, size, seconds, the ratio to clean
prose of the same size in the same place, and the growth from the smallest size to the largest.
Targets: each case within 5x clean at 1 MB, and a growth about that of the size (10x for 100 KB
to 1 MB). It exits 0 whatever the numbers: it is a report, not a test.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_runner import ROOT

TOOLS = [
    {
        "type": "function",
        "function": {"name": "f", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}},
    }
]
PROSE = "The walk by the canal was quiet today, and I booked the dentist for Tuesday. "


def _repeat(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


# name -> (where the text goes: "reply" or "arguments", the text of a given size)
CASES = {
    "clean reply": ("reply", lambda n: _repeat(PROSE, n)),
    "clean arguments": ("arguments", lambda n: json.dumps({"q": _repeat(PROSE, n - 10)})),
    "args: fence + spaces": ("arguments", lambda n: "```\n" + " " * (n - 5) + "x"),
    'args: {" + escaped quotes': ("arguments", lambda n: '{"' + _repeat('\\"', n - 2)),
    "args: { + quotes": ("arguments", lambda n: "{" + '"' * (n - 1)),
    "args: { + commas": ("arguments", lambda n: '{"a": 1' + "," * (n - 7)),
    "args: {/* repeated": ("arguments", lambda n: _repeat("{/*", n)),
    "args: JS objects run together": ("arguments", lambda n: _repeat("{a:1}", n)),
    'reply: {" + escaped quotes': ("reply", lambda n: '{"' + _repeat('\\"', n - 2)),
    "reply: {/* repeated": ("reply", lambda n: _repeat("{/*", n)),
    "reply: { + long word + }": ("reply", lambda n: "{" + "a" * (n - 2) + "}"),
    "reply: JS objects run together": ("reply", lambda n: _repeat("{a:1}", n - 6) + " prose"),
    "reply: JS objects and nothing else": ("reply", lambda n: "{a:1}" * (n // 5)),
    "reply: json5 objects run together": ("reply", lambda n: _repeat("{a:0x1}", n - 6) + " prose"),
    "reply: <tool_call>{ repeated": ("reply", lambda n: _repeat("<tool_call>{", n)),
    "reply: <tool_call>f<arg_key> repeated": ("reply", lambda n: _repeat("<tool_call>f<arg_key>", n)),
    "reply: <tool_call>g<arg_key> (unknown)": ("reply", lambda n: _repeat("<tool_call>g<arg_key>", n)),
    "reply: <invoke><parameter> repeated": (
        "reply",
        lambda n: "<function_calls>" + _repeat('<invoke name="f"><parameter name="q">', n - 16),
    ),
    "reply: <invoke> calls repeated": (
        "reply",
        lambda n: "<function_calls>" + _repeat('<invoke name="f"><parameter name="q">x</parameter></invoke>', n - 16),
    ),
    "reply: <function=f> repeated": ("reply", lambda n: _repeat("<function=f>", n)),
    "reply: markers between example fences": ("reply", lambda n: _repeat("```py\nx\n```\n[TOOL_CALLS] ", n)),
    "reply: [TOOL_CALLS]f{ repeated": ("reply", lambda n: _repeat("[TOOL_CALLS]f{", n)),
    "reply: [TOOL_CALLS]f{json5} repeated": ("reply", lambda n: "[TOOL_CALLS]" + _repeat("f{a:0x1}", n - 12)),
    "reply: <|tool_call>call:f{ repeated": ("reply", lambda n: _repeat("<|tool_call>call:f{", n)),
    "reply: kimi call_begin repeated": (
        "reply",
        lambda n: _repeat("<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{", n),
    ),
    "reply: ```json fences repeated": (
        "reply",
        lambda n: _repeat('```json\n{"name": "f", "arguments": {"q": "\n```\n', n),
    ),
    "reply: [f( lists repeated": ("reply", lambda n: _repeat('[f(q="\\"', n)),
    "reply: [f( lists of escaped quotes": ("reply", lambda n: _repeat("[f(" + '\\"' * 4990 + "\n", n)),
    "reply: claims repeated": ("reply", lambda n: _repeat("the tool ", n) + " returned."),
    "reply: <think> repeated": ("reply", lambda n: _repeat("<think>", n)),
    "reply: </think> repeated": ("reply", lambda n: _repeat("</think>", n)),
    "reply: <think> then drafts": (
        "reply",
        lambda n: "<think>" + _repeat('<tool_call>{"name": "f", "arguments": {"q": "x"}}</tool_call>', n - 7),
    ),
    "reply: DeepSeek section start + name repeated": ("reply", lambda n: _repeat("<｜tool▁calls▁begin｜>f ", n)),
    "reply: long names + Kimi argument token": (
        "reply",
        lambda n: _repeat("a" * 199 + "<|tool_call_argument_begin|>", n),
    ),
    'reply: [{"name" arrays never closed': ("reply", lambda n: _repeat('[{"name": "f", "arguments": {"q": "', n)),
    "reply: call cut off in open brackets": (
        "reply",
        lambda n: '<tool_call>{"name": "f", "arguments": {"q": ' + "[" * (n - 40),
    ),
    "reply: leading call objects + prose": (
        "reply",
        lambda n: _repeat('{"name": "f", "arguments": {}}; ', n - 6) + " prose",
    ),
    "reply: objects opening lines, ending }": ("reply", lambda n: "See\n" + _repeat('\n{"name": "f", "q', n - 6) + "}"),
    "reply: <|tools_prefix|>[ repeated": ("reply", lambda n: _repeat('<|tools_prefix|>[{"f": "', n)),
    "reply: >>>f then { repeated": ("reply", lambda n: _repeat('>>>f\n{"q": "', n)),
    "reply: <|python_tag|>f.call( repeated": ("reply", lambda n: _repeat('<|python_tag|>f.call(q="', n)),
    "reply: DeepSeek ASCII call_begin repeated": ("reply", lambda n: _repeat("<|tool_call_begin|>f<|tool_sep|>{", n)),
    "reply: </arg_value> repeated in a value": (
        "reply",
        lambda n: "<tool_call>f<arg_key>q</arg_key><arg_value>" + _repeat("</arg_value>x", n - 60) + "</tool_call>",
    ),
    "reply: </function> repeated in a value": (
        "reply",
        lambda n: "<function=f><parameter=q>" + _repeat('"</function>', n - 40) + "</parameter></function>",
    ),
    "reply: MiniMax-M3 elements never closed": (
        "reply",
        lambda n: ']<]minimax[>[<tool_call>]<]minimax[>[<invoke name="f">' + _repeat("]<]minimax[>[<q>", n - 60),
    ),
    "reply: MiniMax-M3 blocks repeated": (
        "reply",
        lambda n: _repeat("]<]minimax[>[<tool_call>]<]minimax[>[<invoke", n),
    ),
    "reply: <function=f><parameter=q> repeated": ("reply", lambda n: _repeat("<function=f><parameter=q>x", n)),
    "reply: Gemma calls run together": ("reply", lambda n: "<|tool_call>" + _repeat('call:f{q:<|"|>a<|"|>}', n)),
    "reply: <function name=f> never closed, repeated": (
        "reply",
        lambda n: _repeat('<function name="f"><param name="q">', n),
    ),
    "reply: <function name=f> elements, one closing at the end": (
        "reply",
        lambda n: _repeat('<tool_call><function name="f"><param name="q">x', n - 20) + "</function>",
    ),
    "reply: <longcat_tool_call>f<longcat_arg_key> repeated": (
        "reply",
        lambda n: _repeat("<longcat_tool_call>f<longcat_arg_key>", n),
    ),
    "reply: Action: ```json repeated": ("reply", lambda n: _repeat('Action: ```json\n[{"tool_name": "f", ', n)),
    "reply: <atem:invoke> repeated": (
        "reply",
        lambda n: "<atem:function_calls>" + _repeat('<atem:invoke name="f"><atem:parameter name="q">', n - 22),
    ),
    "reply: </minimax:tool_call> repeated": ("reply", lambda n: _repeat("</minimax:tool_call>", n)),
    "reply: headless MiniMax blocks repeated": (
        "reply",
        lambda n: _repeat('<invoke name="f"><parameter name="q">x</parameter></invoke></minimax:tool_call>', n),
    ),
    "reply: <invoke> never closed, then a closing tag": (
        "reply",
        lambda n: _repeat('<invoke name="f">x', n - 20) + "</minimax:tool_call>",
    ),
    "reply: <|assistant|>f then { repeated": ("reply", lambda n: _repeat('<|assistant|>f\n{"q": "', n)),
    "reply: <|assistant|>f then fences repeated": (
        "reply",
        lambda n: _repeat("<|assistant|>f\n```python\ntool_call(q='", n),
    ),
    "reply: f then a fence of tool_call(": (
        "reply",
        lambda n: "f\n```python\n" + _repeat("tool_call(", n - 20) + "\n```",
    ),
    "reply: f then an object never closed": ("reply", lambda n: 'f\n{"q": [' + _repeat('"a", ', n - 20) + "}"),
}


def session(where: str, text: str) -> dict:
    if where == "reply":
        messages = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": text}]
    else:
        messages = [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": text}}],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "ok"},
        ]
    return {"messages": messages, "tools": TOOLS}


def timed(path: Path, runs: int, timeout: float) -> float | None:
    """Best wall time of `runs` scans of `path`, or None when one took over `timeout` seconds."""
    best = None
    for _ in range(runs):
        start = time.perf_counter()
        try:
            done = subprocess.run(
                [sys.executable, "-m", "inspector", "scan", "--json", "--no-cache", str(path)],
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            return None
        if done.returncode not in (0, 1):
            sys.exit(f"inspector scan {path} exited {done.returncode}:\n{done.stderr.decode()}")
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each scan (the best is kept)")
    parser.add_argument("--sizes", default="100000,1000000", help="text sizes in characters, comma-separated")
    parser.add_argument("--timeout", type=float, default=60, help="seconds after which a run is stopped")
    parser.add_argument("--only", help="only the cases whose name holds this")
    options = parser.parse_args()
    sizes = [int(size) for size in options.sizes.split(",")]
    folder = Path(tempfile.mkdtemp(prefix="inspector-hostile-"))
    try:
        results: dict[tuple[str, int], float | None] = {}
        names = [name for name in CASES if name.startswith("clean") or not options.only or options.only in name]
        print(f"{'case':42}{'size':>10}{'seconds':>10}{'x clean':>9}{'growth':>8}   (best of {options.runs})")
        for name in names:
            where, make = CASES[name]
            for size in sizes:
                path = folder / "session.openai.json"
                path.write_text(json.dumps(session(where, make(size))), encoding="utf-8")
                results[name, size] = seconds = timed(path, options.runs, options.timeout)
                clean = results.get(("clean " + where, size))
                shown = f"> {options.timeout:.0f} s" if seconds is None else f"{seconds:.2f}"
                ratio = f"{seconds / clean:.1f}" if seconds and clean else "-"
                growth = "-"
                if size == sizes[-1] and len(sizes) > 1:
                    first = results.get((name, sizes[0]))
                    growth = f"{seconds / first:.1f}" if seconds and first else "-"
                print(f"{name:42}{size:>10,}{shown:>10}{ratio:>9}{growth:>8}", flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
