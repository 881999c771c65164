"""Detector `tool-markup`, LongCat-Flash and MiniCPM 5. LongCat writes its calls in
`<longcat_tool_call>`: JSON (as vLLM reads it) or the tool's name then `<longcat_arg_key>` /
`<longcat_arg_value>` pairs (as Ollama reads it). MiniCPM 5 writes `<function name=..>` holding
`<param name=..>` elements, in `<tool_call>` or not; as Ollama reads it, only a known tool's
closed element is a call, and a value in CDATA keeps its white space."""

import pytest

from tests.helpers.markup import TOOLS, markup_findings, recovered


@pytest.mark.parametrize(
    "family, reply, calls, cleaned",
    [
        pytest.param(
            "longcat",
            'Checking.\n<longcat_tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</longcat_tool_call>',
            [("get_weather", {"city": "Paris"})],
            "Checking.",
            id="longcat-json",
        ),
        pytest.param(
            "longcat",
            "Checking.<longcat_tool_call>get_weather\n<longcat_arg_key>city</longcat_arg_key>\n"
            "<longcat_arg_value>Oslo</longcat_arg_value>\n<longcat_arg_key>days</longcat_arg_key>\n"
            "<longcat_arg_value>2</longcat_arg_value>\n</longcat_tool_call> Back soon.",
            [("get_weather", {"city": "Oslo", "days": 2})],
            "Checking.Back soon.",
            id="longcat-pairs",
        ),
        pytest.param(
            "minicpm5",
            'Let me look.\n<tool_call><function name="get_weather"><param name="city">Paris</param>'
            '<param name="days">3</param></function></tool_call>',
            [("get_weather", {"city": "Paris", "days": 3})],
            "Let me look.",
            id="minicpm5-wrapped",
        ),
        pytest.param(
            "minicpm5",
            'Running it.\n<function name="run_code">\n<param name="code"><![CDATA[  print("<x>")\n]]></param>\n'
            "</function>",
            [("run_code", {"code": '  print("<x>")\n'})],
            "Running it.",
            id="minicpm5-bare-cdata",
        ),
        pytest.param(
            "minicpm5",
            'Checking the time.\n<function name="get_weather"></function>\n',
            [("get_weather", {})],
            "Checking the time.",
            id="minicpm5-no-parameters",
        ),
    ],
)
def test_calls_are_recovered(write_session, family, reply, calls, cleaned):
    assert recovered(write_session, reply, family) == (calls, cleaned)


@pytest.mark.parametrize(
    "reply",
    [
        pytest.param('In JavaScript, <function name="render"> is not a tag at all.', id="unknown-name-prose"),
        pytest.param('<function name="get_weather"><param name="city">Paris</param> and so on', id="never-closed"),
        pytest.param("LongCat wraps calls in `<longcat_tool_call>` tags.", id="inline-code"),
        pytest.param('<function name="get_weather"></function> is an empty call, in prose.', id="empty-in-a-sentence"),
    ],
)
def test_look_alikes_stay_clean(write_session, reply):
    path = write_session([{"role": "user", "content": "Hi"}, {"role": "assistant", "content": reply}], TOOLS)
    assert markup_findings(path) == []
