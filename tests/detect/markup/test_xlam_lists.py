"""Detector `tool-markup` on xLAM's lists of calls, as vLLM's and SGLang's parsers accept them (their
facts, replies written here): the whole reply, after a thinking block, in a JSON fence or after a
`[TOOL_CALLS]` marker; the JSON lists of records that stay clean, and hostile sizes."""

from __future__ import annotations

import pytest

from tests.helpers.markup import (
    TOOLS,
    assert_recovered,
    assert_scans_fast,
    calls_of,
    markup_findings,
    one_finding,
    repeat,
)

XLAM_TWO = (
    '[{"name": "get_weather", "arguments": {"city": "Dallas", "days": 2}}, '
    '{"name": "search_files", "arguments": {"pattern": "forecast*.csv", "recursive": true}}]'
)


def test_xlam_list_that_is_the_whole_reply(write_session):
    finding = one_finding(write_session, XLAM_TWO + "\n", family="xlam")
    assert calls_of(finding) == [
        ("get_weather", {"city": "Dallas", "days": 2}),
        ("search_files", {"pattern": "forecast*.csv", "recursive": True}),
    ]
    assert finding.fix.apply_to_text(XLAM_TWO + "\n") == ""


def test_xlam_list_after_a_thinking_block_keeps_the_thinking(write_session):
    thinking = "<think>The user wants Seattle's forecast in celsius; one call will do.</think>"
    block = '[{"name": "get_weather", "arguments": {"city": "Seattle", "days": 1}}]'
    reply = f"{thinking}\n{block}"
    finding = one_finding(write_session, reply, family="xlam")
    assert_recovered(finding, reply, "get_weather", {"city": "Seattle", "days": 1}, "\n" + block, thinking)


def test_xlam_unknown_function_name_is_a_call_by_its_shape(write_session):
    reply = '[{"name": "lookup_order", "arguments": {"order_id": "W9077205"}}]'
    finding = one_finding(write_session, reply, family="xlam")
    assert calls_of(finding) == [("lookup_order", {"order_id": "W9077205"})]


def test_xlam_in_a_json_fence_and_after_tool_calls_marker(write_session):
    fenced = 'I\'ll help you with that.\n```json\n[{"name": "get_weather", "arguments": {"city": "Austin"}}]\n```'
    marked = 'I\'ll check the weather for you.[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Austin"}}]'
    for reply in (fenced, marked):
        finding = one_finding(write_session, reply)
        assert calls_of(finding) == [("get_weather", {"city": "Austin"})]


@pytest.mark.parametrize(
    "reply",
    [
        '[{"name": "Alice", "role": "admin"}, {"name": "Bob", "role": "viewer"}]',
        '[{"name": "get_weather", "description": "Current weather for a city", "parameters": {"type": "object", '
        '"properties": {"city": {"type": "string"}}}}]',
        '[{"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}]',
        '[{"name": "Alice", "arguments": ["it is cheaper", "it ships sooner"]}, {"name": "Bob", "arguments": []}]',
        '[{"name": "Jane Doe", "arguments": {"for": "remote work"}}]',
        '<think>They want the raw records.</think>\n[{"name": "Paris", "population": 2102650}]',
        "[]",
    ],
    ids=[
        "records",
        "tool-definitions",
        "schemas-as-parameters",
        "debate-arguments",
        "names-with-spaces",
        "records-after-thinking",
        "empty-list",
    ],
)
def test_xlam_look_alikes_stay_clean(write_session, reply):
    path = write_session(
        [{"role": "user", "content": "Give me that as JSON, please."}, {"role": "assistant", "content": reply}], TOOLS
    )
    assert markup_findings(path) == []


def test_xlam_hostile_size_scans_fast(tmp_path):
    item = '{"name": "get_weather", "arguments": {"city": "Paris"}}, '
    assert_scans_fast(tmp_path, "[" + repeat(item, 500_000) + '{"name": "f", "arguments": {}}]')
    assert_scans_fast(tmp_path, "<think>" + repeat("[{", 500_000) + "</think>[" + repeat("[", 200_000) + "]")
