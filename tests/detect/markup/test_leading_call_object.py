"""A reply that opens with a call object naming a defined tool, then prose: a leaked Llama-style
JSON call (`{"name", "parameters"}`, or `"arguments"`). `tool-markup` recovers it, not executed;
`result-prefix` no longer calls it a fake result. An object that is a result stays `result-prefix`'s."""

import json

import pytest

from inspector.scan.scanner import scan_file
from tests.helpers.markup import TOOLS, assert_recovered, fixed_calls_and_texts, markup_findings, one_finding
from tests.helpers.scanning import kinds_of
from tests.helpers.timing import cpu_time

LLAMA = '{"name": "get_weather", "parameters": {"city": "Paris", "days": 3}}'
OPENAI_STYLE = '{"name": "search_files", "arguments": {"pattern": "*.md", "recursive": true}}'


@pytest.mark.parametrize(
    "reply, tool, arguments, removed, cleaned",
    [
        pytest.param(
            f"{LLAMA} I'm checking the forecast for Paris over the next three days.",
            "get_weather",
            {"city": "Paris", "days": 3},
            LLAMA + " ",
            "I'm checking the forecast for Paris over the next three days.",
            id="llama-parameters",
        ),
        pytest.param(
            f"{OPENAI_STYLE}\n\nLooking for every Markdown file in the project.",
            "search_files",
            {"pattern": "*.md", "recursive": True},
            OPENAI_STYLE + "\n\n",
            "Looking for every Markdown file in the project.",
            id="arguments",
        ),
        pytest.param(
            '{"name": "get_weather", "parameters": {"city": "Lyon", "days": "2"}} One moment.',
            "get_weather",
            {"city": "Lyon", "days": 2},
            '{"name": "get_weather", "parameters": {"city": "Lyon", "days": "2"}} ',
            "One moment.",
            id="typed-by-the-schema",
        ),
    ],
)
def test_a_call_object_opening_the_reply_is_recovered(write_session, reply, tool, arguments, removed, cleaned):
    path = write_session(
        [
            {"role": "user", "content": "What's the weather in Paris for the next 3 days?"},
            {"role": "assistant", "content": reply},
        ],
        TOOLS,
    )
    assert kinds_of(path) == ["tool-markup"]  # result-prefix no longer reports it as a fake result
    finding = one_finding(write_session, reply, family="bare-object")
    assert_recovered(finding, reply, tool, arguments, removed, cleaned)


def test_calls_joined_by_a_semicolon_are_recovered_together(write_session, tmp_path):
    reply = (
        '{"name": "get_weather", "parameters": {"city": "Paris"}}; '
        '{"name": "get_weather", "parameters": {"city": "Rome"}}\nComparing both cities now.'
    )
    path = write_session(
        [{"role": "user", "content": "Paris or Rome this weekend?"}, {"role": "assistant", "content": reply}], TOOLS
    )
    (finding,) = markup_findings(path)
    assert [(call.name, call.arguments) for call in finding.fix.add_calls] == [
        ("get_weather", {"city": "Paris"}),
        ("get_weather", {"city": "Rome"}),
    ]
    calls, texts = fixed_calls_and_texts(path, tmp_path)
    assert calls == [("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Rome"})]
    assert texts == ["Comparing both cities now."]


def test_the_fix_rescans_clean(write_session, tmp_path):
    path = write_session(
        [
            {"role": "user", "content": "Weather in Paris?"},
            {"role": "assistant", "content": f"{LLAMA} Let me fetch that."},
        ],
        TOOLS,
    )
    calls, texts = fixed_calls_and_texts(path, tmp_path)
    assert calls == [("get_weather", {"city": "Paris", "days": 3})]
    assert texts == ["Let me fetch that."]
    assert kinds_of(tmp_path / "fixed.json") == []


@pytest.mark.parametrize(
    "reply",
    [
        '{"name": "Paris", "temperature": 21, "sky": "clear"} It is sunny in Paris today.',  # a result naming no tool
        '{"name": "get_weather", "result": {"high": 21}} Sunny, 21 degrees.',  # a tool's name, but a result's keys
        '{"name": "get_forecast", "parameters": {"city": "Paris"}} Here it is.',  # a tool that is not defined
    ],
)
def test_result_shaped_objects_stay_result_prefix(write_session, reply):
    path = write_session([{"role": "user", "content": "Weather?"}, {"role": "assistant", "content": reply}], TOOLS)
    assert kinds_of(path) == ["result-prefix"]


def test_a_result_after_the_leaked_call_is_still_reported_from_where_it_starts(write_session):
    result = '{"success": true, "pattern": "*.md", "matches": 4}'
    reply = f"{OPENAI_STYLE} {result} Found four files."
    path = write_session(
        [{"role": "user", "content": "Markdown files?"}, {"role": "assistant", "content": reply}], TOOLS
    )
    (result_finding,) = [f for f in scan_file(path)[0].findings if f.kind == "result-prefix"]
    assert reply[slice(*result_finding.span)] == result
    assert result_finding.fix.apply_to_text(reply) == f"{OPENAI_STYLE} Found four files."


@pytest.mark.parametrize(
    "reply",
    [
        'Here is the call you asked about: {"name": "get_weather", "parameters": {"city": "Paris"}}',  # later in the text
        '`{"name": "get_weather", "parameters": {"city": "Paris"}}` is how Llama writes a call.',  # inline code
        '{"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}, '
        '"description": "Forecast"} is its definition.',  # a tool definition, not a call
    ],
)
def test_look_alikes_are_no_leaked_call(write_session, reply):
    path = write_session([{"role": "user", "content": "hello"}, {"role": "assistant", "content": reply}], TOOLS)
    assert markup_findings(path) == []


def test_many_leading_calls_are_read_up_to_the_cap(write_session):
    reply = "; ".join([LLAMA] * 20_000) + " then prose"
    path = write_session([{"role": "assistant", "content": reply}], TOOLS)
    started = cpu_time()
    (finding,) = [f for f in scan_file(path)[0].findings if f.kind == "tool-markup"]
    assert cpu_time() - started < 5
    assert len(finding.fix.add_calls) == 20 and "a bound against hostile text" in finding.message
    assert json.loads(reply[slice(*finding.span)].split("; ")[0]) == json.loads(LLAMA)
