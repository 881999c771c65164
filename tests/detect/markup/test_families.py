"""Detector `tool-markup`, families and layouts read exactly: Apertus (the tool's name as the key),
DeepSeek written with ASCII bars and underscores, Mistral's `[CALL_ID]`, GLM with names and values
beyond ASCII, a call object after the thinking or after prose, Phi-4's `functools` with one object,
DSML `<invoke>` holding a JSON body, several Gemma calls in one block, Llama 3.1's built-in tools
and Functionary v3.2 `>>>NAME`."""

import pytest

from tests.helpers.markup import TOOLS, _tool, one_finding

NOW = _tool("now")
WEATHER_CN = _tool("查询天气", 城市="string")


@pytest.mark.parametrize(
    "family, reply, tools, calls",
    [
        pytest.param(
            "apertus",
            'Checking.\n<|tools_prefix|>[{"get_weather": {"city": "Paris", "days": 2}}, {"now": {}}]<|tools_suffix|>',
            [*TOOLS, NOW],
            [("get_weather", {"city": "Paris", "days": 2}), ("now", {})],
            id="apertus-name-as-key",
        ),
        pytest.param(
            "deepseek",
            'Sure.<|tool_calls_begin|><|tool_call_begin|>get_weather<|tool_sep|>{"city": "Paris"}'
            "<|tool_call_end|><|tool_calls_end|>",
            TOOLS,
            [("get_weather", {"city": "Paris"})],
            id="deepseek-ascii-v31",
        ),
        pytest.param(
            "deepseek",
            'Sure.<|tool▁calls▁begin|><|tool▁call▁begin|>function<|tool▁sep|>get_weather\n```json\n{"city": "Oslo"}\n```'
            "<|tool▁call▁end|><|tool▁calls▁end|>",
            TOOLS,
            [("get_weather", {"city": "Oslo"})],
            id="deepseek-ascii-bars-r1",
        ),
        pytest.param(
            "mistral",
            '[TOOL_CALLS]get_weather[CALL_ID]a1b2c3d4e[ARGS]{"city": "Lima"}',
            TOOLS,
            [("get_weather", {"city": "Lima"})],
            id="mistral-call-id",
        ),
        pytest.param(
            "glm",
            "好的。<tool_call>查询天气<arg_key>城市</arg_key><arg_value>北京</arg_value></tool_call>",
            [*TOOLS, WEATHER_CN],
            [("查询天气", {"城市": "北京"})],
            id="glm-beyond-ascii",
        ),
        pytest.param(
            "bare-object",
            '<think>The user wants Paris.</think>\n{"name": "get_weather", "arguments": {"city": "Paris"}}',
            TOOLS,
            [("get_weather", {"city": "Paris"})],
            id="object-after-thinking",
        ),
        pytest.param(
            "bare-object",
            'I will look that up.\n{"name": "get_weather", "arguments": {"city": "Rome", "days": 1}}\n',
            TOOLS,
            [("get_weather", {"city": "Rome", "days": 1})],
            id="object-after-prose",
        ),
        pytest.param(
            "phi-4",
            'functools{"name": "get_weather", "arguments": {"city": "Kyiv"}}',
            TOOLS,
            [("get_weather", {"city": "Kyiv"})],
            id="phi4-one-object",
        ),
        pytest.param(
            "deepseek-dsml",
            '<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_weather">\n{"city": "Cairo", "days": 2}\n'
            "</｜DSML｜invoke>\n</｜DSML｜function_calls>",
            TOOLS,
            [("get_weather", {"city": "Cairo", "days": 2})],
            id="dsml-json-body",
        ),
        pytest.param(
            "gemma",
            '<|tool_call>call:get_weather{city:<|"|>Paris<|"|>}call:get_weather{city:<|"|>Rome<|"|>}<tool_call|>',
            TOOLS,
            [("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Rome"})],
            id="gemma-two-calls",
        ),
        pytest.param(
            "llama",
            'Searching.\n<|python_tag|>brave_search.call(query="weather in Paris")<|eom_id|>',
            [*TOOLS, _tool("brave_search", query="string")],
            [("brave_search", {"query": "weather in Paris"})],
            id="llama-built-in-tool",
        ),
        pytest.param(
            "functionary",
            'all\nLet me check both.>>>get_weather\n{"city": "Paris"}>>>get_weather\n{"city": "Rome", "days": 2}',
            TOOLS,
            [("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Rome", "days": 2})],
            id="functionary-v3.2",
        ),
    ],
)
def test_family_recovered_exactly(write_session, family, reply, tools, calls):
    finding = one_finding(write_session, reply, tools, family)
    assert [(c.name, c.arguments) for c in finding.fix.add_calls] == calls


@pytest.mark.parametrize(
    "reply",
    [
        pytest.param('The config is\n{"name": "prod", "arguments": {"replicas": 3}}\nwhich is fine.', id="not-last"),
        pytest.param('Records:\n{"name": "Ada", "arguments": {"x": 1}}', id="unknown-name"),
        pytest.param("Apertus writes `<|tools_prefix|>[{...}]<|tools_suffix|>` for calls.", id="apertus-inline"),
        pytest.param("DeepSeek's marker is <|tool_calls_begin|> in its template.", id="deepseek-ascii-prose"),
        pytest.param('In the REPL:\n>>> get_weather\n{"city": "Paris"}\nworks.', id="python-repl"),
        pytest.param("<|python_tag|>Sure, here is the answer.", id="llama-tag-then-prose"),
    ],
)
def test_clean_replies_stay_clean(write_session, reply):
    from tests.helpers.markup import markup_findings

    path = write_session([{"role": "user", "content": "Hi"}, {"role": "assistant", "content": reply}], TOOLS)
    assert markup_findings(path) == []
