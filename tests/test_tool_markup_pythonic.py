"""Detector `tool-markup`, calls in Python call syntax (read with `ast`, never evaluated): Gemini
```` ```tool_code ````, bare pythonic lists (Llama 3.2/4, ToolACE) with or without
`<|python_start|>`, and LFM2's pythonic list; lists in prose and code examples stay clean."""

import pytest

from inspector.model import WARNING

from test_tool_markup import TOOLS, assert_recovered, findings_of, one_finding


def test_gemini_tool_code_fence_read_with_ast(write_session):
    block = '```tool_code\nprint(default_api.get_weather(city="Lima", days=2))\n```'
    reply = f"Let me check the weather in Lima.\n{block}\n"
    finding = one_finding(write_session, reply)
    assert_recovered(finding, reply, "get_weather", {"city": "Lima", "days": 2}, "\n" + block + "\n",
                      "Let me check the weather in Lima.")


def test_tool_code_with_a_non_literal_is_not_evaluated(write_session):
    reply = '```tool_code\nprint(default_api.run_code(code=__import__("os").getcwd()))\n```'
    finding = one_finding(write_session, reply)
    assert finding.severity == WARNING and finding.fix.add_calls == ()


def test_bare_pythonic_list_that_is_the_whole_reply(write_session):
    reply = '[get_weather(city="San Francisco", days=3), search_files(pattern="*.csv", recursive=False)]'
    finding = one_finding(write_session, reply, family="pythonic")
    assert [(c.name, c.arguments) for c in finding.fix.add_calls] == [
        ("get_weather", {"city": "San Francisco", "days": 3}), ("search_files", {"pattern": "*.csv", "recursive": False})]
    assert finding.span == (0, len(reply)) and finding.fix.apply_to_text(reply) == ""


def test_pythonic_list_of_a_known_tool_inside_prose(write_session):
    block = '[get_weather(city="Dakar", days=1)]'
    reply = f"Let me check: {block} and then I'll tell you whether to pack an umbrella."
    finding = one_finding(write_session, reply, family="pythonic")
    assert_recovered(finding, reply, "get_weather", {"city": "Dakar", "days": 1}, block + " ",
                     "Let me check: and then I'll tell you whether to pack an umbrella.")


def test_pythonic_list_of_an_unknown_tool_alone_on_its_line(write_session):
    reply = 'I will book it.\n[book_table(restaurant="Chez Nous", people=4)]\nOne moment.'
    finding = one_finding(write_session, reply, family="pythonic")
    assert finding.fix.add_calls[0].arguments == {"restaurant": "Chez Nous", "people": 4}
    assert finding.fix.apply_to_text(reply) == "I will book it.\nOne moment."


def test_llama4_python_start_markers(write_session):
    block = '<|python_start|>[get_weather(city="Accra")]<|python_end|>'
    reply = f"Checking Accra.\n{block}"
    finding = one_finding(write_session, reply, family="pythonic")
    assert_recovered(finding, reply, "get_weather", {"city": "Accra"}, "\n" + block, "Checking Accra.")


def test_lfm2_pythonic_list_between_its_tokens(write_session):
    block = '<|tool_call_start|>[run_code(code="print(sum(range(10)))")]<|tool_call_end|>'
    reply = f"Let me compute that.\n{block}\nThe sum should be 45."
    finding = one_finding(write_session, reply, family="lfm2")
    assert_recovered(finding, reply, "run_code", {"code": "print(sum(range(10)))"}, block + "\n",
                     "Let me compute that.\nThe sum should be 45.")


@pytest.mark.parametrize("reply", [
    "A list comprehension like [print(x) for x in y] prints each item.",
    "Use [len(a), max(b)] to get both at once.",
    "[len(a), max(b)]",
    'In Python you could write `[get_weather(city="Paris")]` to call it from a script.',
    '```python\nforecasts = [get_weather(city="Paris"), get_weather(city="Rome")]\n```',
    'You can build it with [dict(a=1), dict(b=2)] in the middle of a sentence.',
    "See the docs [here](https://example.org/api(v2)) for details.",
])
def test_pythonic_look_alikes_stay_clean(write_session, reply):
    path = write_session([{"role": "user", "content": "Show me some Python."}, {"role": "assistant", "content": reply}],
                         TOOLS)
    assert findings_of(path) == []
