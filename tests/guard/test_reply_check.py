"""`inspector.check_reply`: one reply checked inside an agent's loop, through the public name, on
the replies the models wrote in the bundled sessions and in the shapes the providers' SDKs give."""

from __future__ import annotations

import re

import pytest

import inspector
from inspector import InspectorError, ToolCall, ToolResult, check_reply
from tests.helpers.samples import SESSIONS

SAVE_MEMORY = {
    "type": "function",
    "function": {
        "name": "save_memory",
        "parameters": {
            "type": "object",
            "properties": {"memory_type": {"type": "string"}, "content": {"type": "string"}},
            "required": ["content"],
        },
    },
}
GET_WEATHER = {  # Anthropic's shape
    "name": "get_weather",
    "input_schema": {"type": "object", "properties": {"days": {"type": "integer"}}, "required": ["days"]},
}


def test_a_result_the_model_wrote_itself_is_taken_out_and_its_call_recovered():
    reply = '{success: true, memory_type: "journal", content: "Met Ana at the cafe"}You saw right through me.'
    check = check_reply(reply, tools=[SAVE_MEMORY])
    assert [(finding.kind, finding.severity) for finding in check.findings] == [("result-prefix", "error")]
    assert not check.ok
    assert check.text == "You saw right through me."
    [call] = check.calls
    assert (call.name, call.arguments) == ("save_memory", {"memory_type": "journal", "content": "Met Ana at the cafe"})
    assert check.reason.startswith("Your reply contains a tool result you wrote yourself; no tool ran.")
    assert 'Call save_memory with {"memory_type": "journal", "content": "Met Ana at the cafe"} now' in check.reason


def test_a_call_printed_as_text_becomes_the_call_and_the_reply_keeps_only_its_prose():
    reply = (
        'Let me note that.\n<tool_call>\n{"name": "save_memory", "arguments": {"content": "buy milk"}}\n</tool_call>'
    )
    check = check_reply(reply, tools=[SAVE_MEMORY])
    assert [finding.kind for finding in check.findings] == ["tool-markup"]
    assert check.text.strip() == "Let me note that."
    assert [(call.name, call.arguments) for call in check.calls] == [("save_memory", {"content": "buy milk"})]


def test_an_honest_reply_after_a_call_that_ran_is_clean():
    call = {"id": "call_1", "type": "function", "function": {"name": "save_memory", "arguments": '{"content": "x"}'}}
    check = check_reply(
        "Saved it to your journal.",
        tools=[SAVE_MEMORY],
        calls=[call],
        results=[{"role": "tool", "tool_call_id": "call_1", "content": '{"success": true}'}],
    )
    assert check.findings == ()
    assert check.ok and check.text == "Saved it to your journal." and check.calls == () and check.reason == ""


def test_the_calls_own_problems_are_found_in_each_provider_s_shape():
    calls = [
        {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"days": "3"}},  # Anthropic, "3" for 3
        {"type": "function_call", "call_id": "fc_1", "name": "get_wether", "arguments": '{"days": 2}'},  # Responses
        {"id": "call_2", "function": {"name": "get_weather", "arguments": '{"days": 1}}}}'}},  # Chat Completions
    ]
    results = [
        {"type": "tool_result", "tool_use_id": "toolu_1", "content": "sunny"},
        {"type": "function_call_output", "call_id": "fc_1", "output": "sunny"},
        {"role": "tool", "tool_call_id": "call_2", "content": "sunny"},
    ]
    check = check_reply("Sunny all week.", tools=[GET_WEATHER], calls=calls, results=results)
    assert sorted(finding.kind for finding in check.findings) == ["malformed-arguments", "unknown-tool", "wrong-type"]
    assert not check.ok


def test_a_success_claimed_after_a_failed_call_is_flagged():
    call = ToolCall("call_1", "save_memory", '{"content": "x"}', {"content": "x"})
    failed = ToolResult("call_1", "save_memory", "Error: No space left on device", is_error=True)
    check = check_reply("Done! I've saved it to your journal.", tools=[SAVE_MEMORY], calls=[call], results=[failed])
    assert "claimed-success" in [finding.kind for finding in check.findings]


def test_a_plain_string_answers_the_call_at_its_place():
    calls = [{"name": "save_memory", "arguments": {"content": "x"}, "id": "c1"}]
    check = check_reply("Saved.", tools=[SAVE_MEMORY], calls=calls, results=["ok"])
    assert check.findings == ()


def test_each_flagged_reply_of_a_bundled_session_is_flagged_alike_when_checked_alone():
    [result] = inspector.scan_file(SESSIONS / "memory-agent.openai.json")
    tools = list(result.session.tools)
    flagged = {f.turn for f in result.findings if f.kind in ("result-prefix", "tool-markup", "fake-result-block")}
    assert flagged
    for position in flagged:
        turn = result.session.turn_at(position)
        assert turn is not None and not turn.tool_calls
        kinds = {f.kind for f in result.findings if f.turn == position}
        assert kinds <= {finding.kind for finding in check_reply(turn.text, tools=tools).findings}


@pytest.mark.parametrize(
    ("call", "said"),
    [
        ("save_memory", "not a tool call: 'save_memory'"),
        ({"arguments": {}}, "a tool call without a name: {'arguments': {}}"),
    ],
)
def test_a_value_that_is_no_call_is_one_clear_error(call: object, said: str):
    with pytest.raises(InspectorError) as raised:
        check_reply("ok", calls=[call])  # type: ignore[list-item]
    assert str(raised.value) == said


def test_a_result_without_content_or_a_tool_that_is_no_definition_is_one_clear_error():
    with pytest.raises(InspectorError, match=re.escape("a tool result without content: {'tool_call_id': 'c1'}")):
        check_reply("ok", calls=[{"name": "f", "id": "c1"}], results=[{"tool_call_id": "c1"}])
    with pytest.raises(InspectorError, match=re.escape("not a tool definition: {'type': 'nothing'}")):
        check_reply("ok", tools=[{"type": "nothing"}])
    with pytest.raises(InspectorError, match="the reply must be text, not bytes"):
        check_reply(b"ok")  # type: ignore[arg-type]
