"""Property tests (hypothesis): hostile model text, in every file format, through the public entry points.

The text is built from the pieces the parsers look for: every markup family's start markers (read
from the family modules' `READERS`) and their inner and closing tags, fences, JSON punctuation,
quotes, backslashes, white space and random unicode. It is put where model text lives in a session
of each file format (OpenAI Chat Completions, Anthropic Messages, Gemini, session dump): an
assistant reply, a call's arguments (a JSON string where the format stores one) or values, and a
tool result. Each session is written to a file and run through `inspector scan FILE` and
`inspector fix FILE --accept all -o OUT` (`inspector.cli.main.main`): no exception escapes, the
exit codes are 0, 1 or 2, the input's bytes are unchanged, and a written output reads again and
scans. The parsers themselves (`find_blocks`, `lenient_json`) are also run on the text alone.

Profiles: by default each test tries 25 examples, with no deadline (a loaded 2-CPU CI machine
must not make a slow example fail) and no example database; hypothesis' caches go to the system's
temporary folder, not into the repository. For a longer run, set the environment variable `INSPECTOR_FUZZ_EXAMPLES`, e.g.

    INSPECTOR_FUZZ_EXAMPLES=2000 python -m pytest tests/system/test_fuzz.py

and `INSPECTOR_FUZZ_SEED` to replay a run with a given seed (hypothesis prints the failing example).
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from inspector.catalogue import Catalogue, parse_tool_definitions
from inspector.cli.main import main
from inspector.detect.markup import find_blocks, json_tags, pythonic, special_tokens, step3, xml_tags
from inspector.sources import load_sessions
from inspector.support.lenient_json import loads_lenient, only_objects, parse_array_at, parse_object_at
from tests.helpers.properties import examples, replay

FUZZ = examples("INSPECTOR_FUZZ_EXAMPLES", 25)

START_MARKERS = sorted(
    {*json_tags.READERS, *xml_tags.READERS, *special_tokens.READERS, *pythonic.READERS, *step3.READERS}
)
INNER_MARKERS = [
    # xml_tags: Qwen3-Coder / Seed-OSS, GLM, Anthropic-style, MiniMax and DSML elements
    "<function=f>",
    "<function=g>",
    "</function>",
    "<parameter=q>",
    "<parameter=n>",
    "</parameter>",
    "</tool_call>",
    "</seed:tool_call>",
    "<arg_key>",
    "</arg_key>",
    "<arg_value>",
    "</arg_value>",
    '<invoke name="f">',
    '<invoke name="',
    "</invoke>",
    '<parameter name="q">',
    '<parameter name="',
    ' string="false"',
    "</parameter>",
    "</function_calls>",
    "</minimax:tool_call>",
    '<｜DSML｜invoke name="f">',
    '<｜DSML｜parameter name="q">',
    "</｜DSML｜parameter>",
    "</｜DSML｜invoke>",
    "</｜DSML｜function_calls>",
    # step3: the calls' markers and `<steptml:..>` elements
    "function<｜tool_sep｜>",
    "<｜tool_call_end｜>",
    "<｜tool_calls_end｜>",
    '<steptml:invoke name="f">',
    '<steptml:parameter name="q">',
    "</steptml:parameter>",
    "</steptml:invoke>",
    # json_tags' closing tags and separators
    "[END_TOOL_REQUEST]",
    "<|endoftext|>",
    "</TOOLCALL>",
    "</tool_calls>",
    "<|tool_call_end|>",
    "</function_call>",
    "<|action_end|>",
    "<|END_ACTION|>",
    "[ARGS]",
    "; ",
    "\n",
    # special_tokens: DeepSeek, Kimi, Harmony, Gemma
    "function<｜tool▁sep｜>f",
    "f<｜tool▁sep｜>",
    "<｜tool▁call▁end｜>",
    "<｜tool▁calls▁end｜>",
    "functions.f:0",
    "<|tool_call_argument_begin|>",
    "<|tool_calls_section_end|>",
    "to=functions.f",
    " <|constrain|>json",
    "<|message|>",
    "<|call|>",
    "commentary",
    "call:f",
    '<|"|>',
    "<escape>",
    "<tool_call|>",
    "<end_function_call>",
    # pythonic and fences
    "[f(",
    "[g(",
    "q=",
    "n=1",
    ")]",
    "print(default_api.f(",
    "<|python_end|>",
    "```",
    "```json\n",
    "```tool_call\n",
    "```tool_code\n",
    "```py\n",
    "\n```\n",
    "`",
    # call-shaped JSON
    '{"name": "f", "arguments": ',
    '{"name": "g", "parameters": ',
    '{"tool": "f", "arguments": "',
    '{"q": "x"}',
    '{"n": 1}',
    "{a:1}",
    "{a:0x1}",
    "{success: true}",
    "{...}",
    "TOOL CALL:",
]
PUNCTUATION = list("{}[]:,\"'\\/*") + ["//", "/*", "*/", '\\"', "\\\\", "True", "None", "null", "1e5", "-0"]
SPACE = [" ", "\n", "\t", "\r\n", "\u00a0", "\u2028"]

TEXT = st.lists(
    st.one_of(
        st.sampled_from(START_MARKERS),
        st.sampled_from(INNER_MARKERS),
        st.sampled_from(PUNCTUATION),
        st.sampled_from(SPACE),
        st.text(max_size=8),
    ),
    max_size=60,
).map("".join)

OPENAI_TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "f",
            "parameters": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
        },
    },
    {
        "type": "function",
        "function": {
            "name": "g",
            "parameters": {"type": "object", "properties": {"n": {"type": "integer"}, "flag": {"type": "boolean"}}},
        },
    },
]


def _openai(reply: str, arguments: str, result: str) -> dict:
    return {
        "messages": [
            {"role": "system", "content": "You can call f and g."},
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": reply},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "f", "arguments": arguments}},
                    {"id": "c2", "type": "function", "function": {"name": "g", "arguments": reply}},
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": result},
            {"role": "assistant", "content": reply + arguments},
        ],
        "tools": OPENAI_TOOLS,
    }


def _anthropic(reply: str, arguments: str, result: str) -> dict:
    tools = [{"name": t["function"]["name"], "input_schema": t["function"]["parameters"]} for t in OPENAI_TOOLS]
    return {
        "model": "claude",
        "system": "You can call f and g.",
        "tools": tools,
        "messages": [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": reply},
                    {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"q": arguments}},
                    {"type": "tool_use", "id": "toolu_2", "name": "g", "input": {"n": reply}},
                ],
            },
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": result}]},
            {"role": "assistant", "content": reply + arguments},
        ],
    }


def _gemini(reply: str, arguments: str, result: str) -> dict:
    tools = [
        {
            "functionDeclarations": [
                {"name": t["function"]["name"], "parameters": t["function"]["parameters"]} for t in OPENAI_TOOLS
            ]
        }
    ]
    return {
        "tools": tools,
        "systemInstruction": {"parts": [{"text": "You can call f and g."}]},
        "contents": [
            {"role": "user", "parts": [{"text": "hi"}]},
            {
                "role": "model",
                "parts": [
                    {"text": reply},
                    {"functionCall": {"id": "fc_1", "name": "f", "args": {"q": arguments}}},
                    {"functionCall": {"name": "g", "args": {"n": reply}}},
                ],
            },
            {
                "role": "user",
                "parts": [{"functionResponse": {"id": "fc_1", "name": "f", "response": {"output": result}}}],
            },
            {"role": "model", "parts": [{"text": reply + arguments}]},
        ],
    }


def _session_dump(reply: str, arguments: str, result: str) -> dict:
    entries = [
        {"timestamp": 1.0, "node_type": "system", "role": "system", "content": "You can call f and g."},
        {"timestamp": 2.0, "node_type": "user", "role": "user", "content": "hi"},
        {
            "timestamp": 3.0,
            "node_type": "turn_output",
            "role": "assistant",
            "content": reply,
            "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": arguments}}],
        },
        {"timestamp": 4.0, "node_type": "tool_result", "tool_call_id": "call_1", "tool_name": "f", "content": result},
        {"timestamp": 5.0, "node_type": "turn_output", "role": "assistant", "content": reply + arguments},
    ]
    return {"session_id": "fuzz", "entry_count": len(entries), "entries": entries}


FORMATS = {"openai": _openai, "anthropic": _anthropic, "gemini": _gemini, "session-dump": _session_dump}
CATALOGUE = Catalogue(parse_tool_definitions(OPENAI_TOOLS))


def _quiet_main(argv: list[str]) -> int:
    """`main(argv)` with its output captured: an exception escaping it fails the test as it is."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return main(argv)


@pytest.mark.parametrize("format_name", FORMATS)
@replay
@FUZZ
@given(reply=TEXT, arguments=TEXT, result=TEXT, indent=st.sampled_from([None, 2]))
def test_scan_and_fix_survive_hostile_text_in_every_format(format_name, reply, arguments, result, indent):
    document = FORMATS[format_name](reply, arguments, result)
    with tempfile.TemporaryDirectory(prefix="inspector-fuzz-") as folder:
        path = Path(folder) / f"session.{format_name}.json"
        path.write_text(json.dumps(document, indent=indent, ensure_ascii=False), encoding="utf-8")
        before = path.read_bytes()
        (session,) = load_sessions(path)
        assert session.format == format_name

        assert _quiet_main(["scan", str(path)]) in (0, 1, 2)
        assert path.read_bytes() == before

        out = Path(folder) / "fixed.json"
        assert _quiet_main(["fix", str(path), "--accept", "all", "-o", str(out)]) in (0, 1, 2)
        assert path.read_bytes() == before
        if out.exists():
            assert [s.format for s in load_sessions(out)] == [format_name]
            assert _quiet_main(["scan", str(out)]) in (0, 1)


@replay
@FUZZ
@given(text=TEXT)
def test_the_parsers_survive_hostile_text_alone(text):
    blocks = find_blocks(text, CATALOGUE)
    assert all(0 <= b.start < b.end <= len(text) for b in blocks)
    assert all(a.end <= b.start for a, b in itertools.pairwise(blocks))  # in order, apart
    for limit in (0, 1, 3):
        assert find_blocks(text, CATALOGUE, limit) == blocks[: limit + 1]
    loads_lenient(text)
    for start in range(len(text)):
        if text[start] == "{":
            parsed = parse_object_at(text, start)
            assert parsed is None or start < parsed.end <= len(text)
            only_objects(text, start)
        elif text[start] == "[":
            parse_array_at(text, start)
