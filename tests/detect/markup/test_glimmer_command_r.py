"""Detector `tool-markup`, Glimmer and Command R. Glimmer writes its calls in the ATEM namespace,
`<atem:function_calls><atem:invoke name=..><atem:parameter name=..>v</atem:parameter></atem:invoke>
</atem:function_calls>`; Command R writes `Action:` then a ```` ```json ```` fence holding a list of
`{"tool_name", "parameters"}` objects, its `directly-answer` pseudo-tool being no call (both as
Ollama's parsers read them)."""

import pytest

from tests.helpers.markup import TOOLS, markup_findings, recovered


@pytest.mark.parametrize(
    "family, reply, calls, cleaned",
    [
        pytest.param(
            "glimmer",
            'Let me look.\n<atem:function_calls>\n<atem:invoke name="get_weather">\n'
            '<atem:parameter name="city">Paris</atem:parameter>\n<atem:parameter name="days">2</atem:parameter>\n'
            "</atem:invoke>\n</atem:function_calls>",
            [("get_weather", {"city": "Paris", "days": 2})],
            "Let me look.",
            id="glimmer-atem",
        ),
        pytest.param(
            "command-r",
            'I will search for it.\nAction: ```json\n[\n    {\n        "tool_name": "search_files",\n'
            '        "parameters": {"pattern": "*.py", "recursive": true}\n    },\n'
            '    {"tool_name": "directly-answer", "parameters": {}}\n]\n```',
            [("search_files", {"pattern": "*.py", "recursive": True})],
            "I will search for it.",
            id="command-r-action",
        ),
    ],
)
def test_calls_are_recovered(write_session, family, reply, calls, cleaned):
    assert recovered(write_session, reply, family) == (calls, cleaned)


@pytest.mark.parametrize(
    "reply",
    [
        pytest.param(
            'Action: ```json\n[{"tool_name": "directly-answer", "parameters": {}}]\n```', id="directly-answer"
        ),
        pytest.param("Action: none needed, the file is fine.", id="action-in-prose"),
        pytest.param('Action:\n```json\n{"step": 1, "parameters": {"x": 1}}\n```', id="action-then-data"),
        pytest.param("Glimmer's calls open with `<atem:function_calls>`.", id="inline-code"),
    ],
)
def test_look_alikes_stay_clean(write_session, reply):
    path = write_session([{"role": "user", "content": "Hi"}, {"role": "assistant", "content": reply}], TOOLS)
    assert markup_findings(path) == []
