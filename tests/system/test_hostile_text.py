"""Hostile model text scans in linear time: each input here took many seconds (or minutes) before
its cause was fixed and takes milliseconds now. Each scan runs in a thread with a generous limit,
so a regression fails clearly and a loaded machine never makes the test flaky."""

import json
import threading

import pytest

from inspector.detect import detect_findings
from inspector.sources import load_sessions

LIMIT = 10  # seconds: the old code took minutes on most of these
TOOLS = [
    {
        "type": "function",
        "function": {"name": "f", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}},
    }
]


def _repeat(unit, size):
    return (unit * (size // len(unit) + 1))[:size]


def _findings(tmp_path, where, text):
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
    path = tmp_path / "hostile.openai.json"
    path.write_text(json.dumps({"messages": messages, "tools": TOOLS}), encoding="utf-8")
    (session,) = load_sessions(path)
    found = []
    worker = threading.Thread(target=lambda: found.append(detect_findings(session)), daemon=True)
    worker.start()
    worker.join(LIMIT)
    assert not worker.is_alive(), f"scanning {len(text):,} characters of hostile text took over {LIMIT} s"
    return found[0]


CASES = {  # cause fixed -> (where the text goes, the text): each took > 10 s before
    "fence of white space (cubic backtracking)": ("arguments", "```\n" + " " * 4000 + "x"),
    "unclosed string of escaped quotes": ("reply", '{"' + _repeat('\\"', 100_000)),
    "unclosed /* comments": ("reply", _repeat("{/*", 100_000)),
    "unclosed /* comments in arguments": ("arguments", _repeat("{/*", 100_000)),
    "one long word in an object": ("reply", "{" + "a" * 100_000 + "}"),
    "GLM <arg_key> repeated": ("reply", _repeat("<tool_call>f<arg_key>", 200_000)),
    "<invoke><parameter> repeated": (
        "reply",
        "<function_calls>" + _repeat('<invoke name="f"><parameter name="q">', 200_000),
    ),
    "<tool_call>{ repeated": ("reply", _repeat("<tool_call>{", 1_000_000)),
    "{ and quotes in arguments (json-repair)": ("arguments", "{" + '"' * 1_000_000),
    "<function=f> repeated (a prose body read to the end)": ("reply", _repeat("<function=f>", 1_000_000)),
    "pythonic lists of escaped quotes (a string opened at each)": ("reply", ("[f(" + '\\"' * 4990 + "\n") * 20),
    "markers between example fences (each fence tried)": ("reply", _repeat("```py\nx\n```\n[TOOL_CALLS] ", 600_000)),
}


@pytest.mark.parametrize("where, text", CASES.values(), ids=CASES.keys())
def test_hostile_text_scans_fast(tmp_path, where, text):
    _findings(tmp_path, where, text)


def test_a_fence_is_still_unwrapped(tmp_path):
    (finding,) = _findings(tmp_path, "arguments", '```json\n{"q": "x"}\n```  ')
    assert finding.arguments == {"q": "x"}
    assert finding.payload["repairs"][0] == "removed a ``` fence around the arguments"


def test_json_repair_cap_is_stated(tmp_path):
    (finding,) = _findings(tmp_path, "arguments", "{" + '"' * 60_000)
    assert "not given to json-repair" in finding.message


def test_objects_run_together_are_read_up_to_the_cap(tmp_path):
    # 140,000 objects that only json5 reads (some 300 µs each: the old code took minutes on them)
    findings = _findings(tmp_path, "reply", _repeat("{a:0x1}", 1_000_000) + " prose")
    assert [f.kind for f in findings] == ["result-prefix"] * 20
    assert findings[-1].message.endswith(
        "The reply starts with more than 20 objects: only the first 20 are reported (a bound against hostile text)."
    )


@pytest.mark.parametrize("objects", ["{a:0x1}", "{a:1} ", '{"a": [1, "}"]}'])
def test_a_reply_of_nothing_but_objects_is_still_not_flagged(tmp_path, objects):
    text = objects * (1_000_000 // len(objects))
    assert not [f for f in _findings(tmp_path, "reply", text) if f.kind == "result-prefix"]


def test_objects_then_prose_ending_in_a_brace_are_flagged(tmp_path):
    findings = _findings(tmp_path, "reply", "{a:1}" * 100 + " then {b}")
    assert [f.kind for f in findings] == ["result-prefix"] * 20


BLOCKS = {  # 83,000 and 22,000 blocks in 1 MB: each was read (3 s and 0.8 s), though only 20 are reported
    "<tool_call>{ repeated": _repeat("<tool_call>{", 1_000_000),
    "```json fences repeated": _repeat('```json\n{"name": "f", "arguments": {"q": "\n```\n', 1_000_000),
}


@pytest.mark.parametrize("text", BLOCKS.values(), ids=BLOCKS.keys())
def test_leaked_blocks_are_read_up_to_the_cap(tmp_path, text):
    findings = [f for f in _findings(tmp_path, "reply", text) if f.kind == "tool-markup"]
    assert len(findings) == 20
    assert findings[-1].message.endswith(
        "The reply holds more than 20 leaked blocks: only the first 20 are "
        "reported, and the rest of the reply is not read (a bound against hostile text)."
    )
    assert all(finding.fix is not None for finding in findings)  # stripping 20 leaves the rest: never empty


CALLS = {  # calls one after another in one block, each read by json5 (some 150 µs): 13 s on 200 KB
    "Mistral NAME{json5} repeated": "[TOOL_CALLS]" + _repeat("f{a:0x1}", 1_000_000),
    "Llama objects joined by ; ": "<|python_tag|>" + _repeat('{"name": "f", "arguments": {a: 0x1}}; ', 1_000_000),
    "Kimi section of calls": "<|tool_calls_section_begin|>"
    + _repeat("<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{a:0x1}<|tool_call_end|>", 1_000_000),
    "Anthropic-style <invoke> elements": "<function_calls>"
    + _repeat('<invoke name="f"><parameter name="q">x</parameter></invoke>', 1_000_000),
}


@pytest.mark.parametrize("text", CALLS.values(), ids=CALLS.keys())
def test_calls_one_after_another_are_read_up_to_the_cap(tmp_path, text):
    first = next(f for f in _findings(tmp_path, "reply", text) if f.kind == "tool-markup")
    assert len(first.fix.add_calls) == 20
    assert first.message.endswith(
        "It holds more calls one after another than the 20 read (a bound against "
        "hostile text): the rest is left as text."
    )
