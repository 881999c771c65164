"""Detector `tool-markup` on several calls in one block, as vLLM's and SGLang's parsers accept them
(their facts, replies written here): Llama's after `<|python_tag|>` joined by semicolons or lines,
two objects in one Hermes `<tool_call>`, a `<tool_calls>` block with broken lines; hostile sizes."""

from __future__ import annotations

import pytest

from tests.helpers.markup import TOOLS, assert_scans_fast, calls_of, fixed_calls_and_texts, one_finding, repeat

WEATHER = '{"name": "get_weather", "parameters": {"city": "Paris", "days": 2}}'
SEARCH = '{"name": "search_files", "parameters": {"pattern": "*.csv"}}'


@pytest.mark.parametrize("separator", ["; ", ";", " ; ", ";\n", "\n"])
def test_llama_calls_after_python_tag_joined_by_semicolons_or_lines(write_session, separator):
    reply = f"Let me do both.\n<|python_tag|>{WEATHER}{separator}{SEARCH}"
    finding = one_finding(write_session, reply, family="llama")
    assert calls_of(finding) == [("get_weather", {"city": "Paris", "days": 2}), ("search_files", {"pattern": "*.csv"})]
    assert finding.fix.apply_to_text(reply) == "Let me do both."


def test_llama_call_then_prose_after_a_semicolon_is_one_call(write_session):
    reply = f"<|python_tag|>{WEATHER}; then I will summarise it for you."
    finding = one_finding(write_session, reply, family="llama")
    assert calls_of(finding) == [("get_weather", {"city": "Paris", "days": 2})]
    assert finding.fix.apply_to_text(reply) == "; then I will summarise it for you."


@pytest.mark.parametrize("between", [", ", ",\n", "\n"], ids=["comma", "comma-newline", "own-lines"])
def test_hermes_two_objects_in_one_tool_call(write_session, between):
    block = f"<tool_call>\n{WEATHER}{between}{SEARCH}\n</tool_call>"
    reply = f"Checking the forecast and finding the CSV files.\n{block}\nBack in a moment."
    finding = one_finding(write_session, reply, family="hermes")
    assert calls_of(finding) == [("get_weather", {"city": "Paris", "days": 2}), ("search_files", {"pattern": "*.csv"})]
    assert finding.fix.apply_to_text(reply) == "Checking the forecast and finding the CSV files.\nBack in a moment."


def test_one_broken_line_in_a_tool_calls_block_keeps_the_good_lines(write_session, tmp_path):
    broken = '{"name": "run_code", "arguments": {"code": "print(1)"'
    block = f"<tool_calls>\n{WEATHER}\n{broken}\n{SEARCH}\n</tool_calls>"
    reply = f"Three things at once.\n{block}"
    finding = one_finding(write_session, reply, family="jamba")
    assert calls_of(finding) == [("get_weather", {"city": "Paris", "days": 2}), ("search_files", {"pattern": "*.csv"})]
    assert "a line that does not parse, " + broken in finding.message
    assert "warning: it is not recovered, and the fix removes it with the block" in finding.message
    path = write_session([{"role": "user", "content": "Go."}, {"role": "assistant", "content": reply}], TOOLS)
    assert fixed_calls_and_texts(path, tmp_path) == (
        [("get_weather", {"city": "Paris", "days": 2}), ("search_files", {"pattern": "*.csv"})],
        ["Three things at once."],
    )


def test_a_tool_calls_block_of_only_broken_lines_recovers_nothing(write_session):
    reply = 'Trying.\n<tool_calls>\n{"name": "get_weather", "arguments": {"city": \n{"name": "run_code"\n</tool_calls>'
    finding = one_finding(write_session, reply, family="jamba")
    assert finding.fix.add_calls == ()
    assert finding.fix.apply_to_text(reply) == "Trying."


@pytest.mark.parametrize(
    "text",
    [
        "<|python_tag|>" + repeat('{"name": "f", "arguments": {}} ; ', 300_000),
        repeat('<|python_tag|>{"name": "f", "arguments": {}}' + " " * 5000 + "\n", 300_000),
        "Go.\n<tool_calls>\n" + repeat('{"name": "f", "arguments": {"q": \n', 300_000) + "</tool_calls>",
        repeat('<tool_calls>\n{"name": "f", "arguments": {}}\n{"name": "f"\n</tool_calls>\n', 300_000),
        repeat('<tool_call>{"name": "f", "arguments": {}}, ', 300_000),
    ],
    ids=["semicolons", "white-space-runs", "broken-lines", "blocks-with-a-broken-line", "commas"],
)
def test_several_calls_hostile_size_scans_fast(tmp_path, text):
    assert_scans_fast(tmp_path, text)
