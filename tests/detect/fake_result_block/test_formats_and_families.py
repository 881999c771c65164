"""Detector `fake-result-block` in other formats (Anthropic's `<function_results>`, Gemini's
`tool_outputs` fence, a ShareGPT row beside a real tool turn) and in the other families of markup
(ReAct, Llama, ChatML, Mistral, Harmony, `<tool_result>`), each stripped to the prose."""

from __future__ import annotations

import json

import pytest

from inspector.cli.main import main
from inspector.scan.scanner import scan_file
from inspector.sources import load_sessions
from tests.helpers.fake_result_block import KIND, WEATHER, kinds_at
from tests.helpers.scanning import findings_of


def test_anthropic_function_results_after_leaked_function_calls(tmp_path, capsys):
    reply = (
        'I\'ll look that up.\n\n<function_calls>\n<invoke name="get_weather">\n<parameter name="city">Oslo'
        "</parameter>\n</invoke>\n</function_calls>\n<function_results>\n<result>\n<tool_name>get_weather"
        "</tool_name>\n<stdout>3 °C, light rain</stdout>\n</result>\n</function_results>\n\nIt is 3 °C with light rain."
    )
    document = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "system": "You are terse.",
        "tools": [
            {
                "name": "get_weather",
                "description": "Current weather.",
                "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
            }
        ],
        "messages": [
            {"role": "user", "content": "Weather in Oslo?"},
            {"role": "assistant", "content": [{"type": "text", "text": reply}]},
            {"role": "user", "content": "Thanks."},
        ],
    }
    path = tmp_path / "claude.json"
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    (result,) = scan_file(path)
    assert result.session.format == "anthropic"
    assert kinds_at(result.findings, 1) == [KIND, "tool-markup"]
    (fake,) = findings_of(path, KIND)
    assert (fake.tool, fake.payload["family"]) == ("get_weather", "function_results")
    out = tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 0
    messages = json.loads(out.read_text())["messages"]
    assert messages[1]["content"][0]["type"] == "tool_use" and messages[1]["content"][0]["input"] == {"city": "Oslo"}
    assert messages[3]["content"][0]["text"] == "I'll look that up.\n\nIt is 3 °C with light rain."
    assert [f.kind for r in scan_file(out) for f in r.findings] == []


def test_gemini_tool_outputs_fence_after_a_tool_code_fence(tmp_path, capsys):
    reply = (
        '```tool_code\nprint(default_api.get_weather(city="Oslo"))\n```\n```tool_outputs\n'
        '{"temperature": 4, "condition": "cloudy"}\n```\nIt is 4 °C and cloudy in Oslo.'
    )
    document = {
        "contents": [
            {"role": "user", "parts": [{"text": "Weather in Oslo?"}]},
            {"role": "model", "parts": [{"text": reply}]},
            {"role": "user", "parts": [{"text": "ok"}]},
        ],
        "tools": [
            {
                "functionDeclarations": [
                    {
                        "name": "get_weather",
                        "parameters": {
                            "type": "object",
                            "properties": {"city": {"type": "string"}},
                            "required": ["city"],
                        },
                    }
                ]
            }
        ],
    }
    path = tmp_path / "gemini.json"
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    (result,) = scan_file(path)
    assert result.session.format == "gemini"
    assert kinds_at(result.findings, 1) == [KIND, "tool-markup"]
    out = tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 0
    (fixed,) = load_sessions(out)
    assert [t.text for t in fixed.turns if t.role == "assistant" and t.text] == ["It is 4 °C and cloudy in Oslo."]
    assert [c.name for t in fixed.turns for c in t.tool_calls] == ["get_weather"]


def test_sharegpt_fake_response_in_a_gpt_turn_but_not_the_real_tool_turn(tmp_path):
    tools = json.dumps([WEATHER])
    fake = (
        '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call>\n'
        '<tool_response>\n{"name": "get_weather", "content": "9 °C"}\n</tool_response>\nIt is 9 °C.'
    )
    rows = [
        {
            "id": "fake",
            "tools": tools,
            "conversations": [{"from": "human", "value": "Weather in Oslo?"}, {"from": "gpt", "value": fake}],
        },
        {
            "id": "real",
            "tools": tools,
            "conversations": [
                {"from": "human", "value": "Weather in Oslo?"},
                {
                    "from": "gpt",
                    "value": '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call>',
                },
                {
                    "from": "tool",
                    "value": '<tool_response>\n{"name": "get_weather", "content": "9 °C"}\n</tool_response>',
                },
                {"from": "gpt", "value": "It is 9 °C."},
            ],
        },
    ]
    path = tmp_path / "hermes.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    fake_result, real_result = scan_file(path)
    assert fake_result.session.format == "sharegpt"
    # the gpt turn's <tool_call> is its real call (left unanswered); the <tool_response> after it is invented
    assert sorted(f.kind for f in fake_result.findings) == [KIND, "orphan-call"]
    assert real_result.findings == []


@pytest.mark.parametrize(
    "reply, family, tool",
    [
        (
            'Thought: I need the weather.\nAction: get_weather\nAction Input: {"city": "Oslo"}\nObservation: 5 °C, windy\n'
            "Thought: I know the answer.\nFinal Answer: It is 5 °C and windy.",
            "react",
            "get_weather",
        ),
        (
            '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Oslo"}}<|eom_id|><|start_header_id|>ipython'
            '<|end_header_id|>\n\n{"temperature": 6}<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\nIt is 6 °C.',
            "llama",
            None,
        ),
        (
            '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call><|im_end|>\n<|im_start|>tool\n'
            '<tool_response>\n{"temperature": 7}\n</tool_response><|im_end|>\n<|im_start|>assistant\nIt is 7 °C.',
            "chatml",
            None,
        ),
        (
            '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Oslo"}}][TOOL_RESULTS]{"content": 8}'
            "[/TOOL_RESULTS]It is 8 °C.",
            "mistral",
            None,
        ),
        (
            '<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Oslo"}<|call|>'
            '<|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>{"temperature": 9}<|end|>'
            "<|start|>assistant<|channel|>final<|message|>It is 9 °C.",
            "harmony",
            "get_weather",
        ),
        ('Here you go.\n<tool_result>\n{"temperature": 10}\n</tool_result>\nIt is 10 °C.', "tool_result", None),
    ],
)
def test_other_families_are_found_and_stripped_to_the_prose(write_session, tmp_path, reply, family, tool, capsys):
    path = write_session(
        [
            {"role": "user", "content": "Weather in Oslo?"},
            {"role": "assistant", "content": reply},
            {"role": "user", "content": "thanks"},
        ],
        [WEATHER],
    )
    (fake,) = findings_of(path, KIND)
    assert (fake.payload["family"], fake.tool) == (family, tool)
    out = tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 0
    texts = [m["content"] for m in json.loads(out.read_text())["messages"] if m["role"] == "assistant" and m["content"]]
    (text,) = texts
    assert "°C" in text and not any(
        marker in text
        for marker in (
            "Observation",
            "ipython",
            "<|im_start|>tool",
            "TOOL_RESULTS",
            "functions.get_weather to=",
            "tool_result",
        )
    )
