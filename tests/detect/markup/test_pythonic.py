"""Detector `tool-markup`, calls in Python call syntax (read with `ast`, never evaluated): Gemini
```` ```tool_code ````, bare pythonic lists (Llama 3.2/4, ToolACE) with or without
`<|python_start|>`, and LFM2's pythonic list; lists in prose and code examples stay clean."""

import pytest

from inspector.model import WARNING
from tests.helpers.markup import CASE_FIELDS, TOOLS, assert_recovered, markup_findings, one_finding

TOOL_CODE = '```tool_code\nprint(default_api.get_weather(city="Lima", days=2))\n```'
IN_PROSE = '[get_weather(city="Dakar", days=1)]'
PYTHON_START = '<|python_start|>[get_weather(city="Accra")]<|python_end|>'
LFM2 = '<|tool_call_start|>[run_code(code="print(sum(range(10)))")]<|tool_call_end|>'


@pytest.mark.parametrize(
    CASE_FIELDS,
    [
        pytest.param(
            "gemini-tool-code",
            f"Let me check the weather in Lima.\n{TOOL_CODE}\n",
            "get_weather",
            {"city": "Lima", "days": 2},
            "\n" + TOOL_CODE + "\n",
            "Let me check the weather in Lima.",
            id="gemini-tool-code",
        ),
        pytest.param(
            "pythonic",
            f"Let me check: {IN_PROSE} and then I'll tell you whether to pack an umbrella.",
            "get_weather",
            {"city": "Dakar", "days": 1},
            IN_PROSE + " ",
            "Let me check: and then I'll tell you whether to pack an umbrella.",
            id="known-tool-in-prose",
        ),
        pytest.param(
            "pythonic",
            f"Checking Accra.\n{PYTHON_START}",
            "get_weather",
            {"city": "Accra"},
            "\n" + PYTHON_START,
            "Checking Accra.",
            id="llama-4-python-start",
        ),
        pytest.param(
            "lfm2",
            f"Let me compute that.\n{LFM2}\nThe sum should be 45.",
            "run_code",
            {"code": "print(sum(range(10)))"},
            LFM2 + "\n",
            "Let me compute that.\nThe sum should be 45.",
            id="lfm2-pythonic",
        ),
    ],
)
def test_one_leaked_call_is_recovered(write_session, family, reply, tool, arguments, removed, cleaned):
    assert_recovered(one_finding(write_session, reply, family=family), reply, tool, arguments, removed, cleaned)


def test_tool_code_with_a_non_literal_is_not_evaluated(write_session):
    reply = 'Checking the folder.\n```tool_code\nprint(default_api.run_code(code=__import__("os").getcwd()))\n```'
    finding = one_finding(write_session, reply)
    assert finding.severity == WARNING and finding.fix.add_calls == ()


def test_bare_pythonic_list_that_is_the_whole_reply(write_session):
    reply = '[get_weather(city="San Francisco", days=3), search_files(pattern="*.csv", recursive=False)]'
    finding = one_finding(write_session, reply, family="pythonic")
    assert [(c.name, c.arguments) for c in finding.fix.add_calls] == [
        ("get_weather", {"city": "San Francisco", "days": 3}),
        ("search_files", {"pattern": "*.csv", "recursive": False}),
    ]
    assert finding.span == (0, len(reply)) and finding.fix.apply_to_text(reply) == ""


def test_pythonic_list_of_an_unknown_tool_alone_on_its_line(write_session):
    reply = 'I will book it.\n[book_table(restaurant="Chez Nous", people=4)]\nOne moment.'
    finding = one_finding(write_session, reply, family="pythonic")
    assert finding.fix.add_calls[0].arguments == {"restaurant": "Chez Nous", "people": 4}
    assert finding.fix.apply_to_text(reply) == "I will book it.\nOne moment."


@pytest.mark.parametrize(
    "reply",
    [
        "A list comprehension like [print(x) for x in y] prints each item.",
        "Use [len(a), max(b)] to get both at once.",
        "[len(a), max(b)]",
        'In Python you could write `[get_weather(city="Paris")]` to call it from a script.',
        '```python\nforecasts = [get_weather(city="Paris"), get_weather(city="Rome")]\n```',
        "You can build it with [dict(a=1), dict(b=2)] in the middle of a sentence.",
        "See the docs [here](https://example.org/api(v2)) for details.",
    ],
)
def test_pythonic_look_alikes_stay_clean(write_session, reply):
    path = write_session(
        [{"role": "user", "content": "Show me some Python."}, {"role": "assistant", "content": reply}], TOOLS
    )
    assert markup_findings(path) == []


def test_an_argument_named_by_a_python_keyword_is_read(write_session):
    """OLMo 3 writes `book_flight(from="SFO", ...)` when the tool's parameter is named `from`: the
    call is read with that name, its other values as written."""
    reply = '<function_calls>run_code(code="import os", from="SFO")</function_calls>'
    finding = one_finding(write_session, f"Booking.\n{reply}", family="olmo")
    assert [(c.name, c.arguments) for c in finding.fix.add_calls] == [
        ("run_code", {"code": "import os", "from": "SFO"})
    ]
