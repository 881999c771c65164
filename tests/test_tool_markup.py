"""Detector `tool-markup` on real OpenAI session files: each leaked family is found, its call
parsed and recovered, the markup stripped; look-alikes (inline code, package.json, code examples,
user turns) stay clean."""

import json

import pytest

from inspector.cli import main
from inspector.model import ERROR, WARNING
from inspector.scan import scan_file

KIND = "tool-markup"


def _tool(name, **properties):
    return {"type": "function", "function": {"name": name, "parameters": {
        "type": "object", "properties": {key: {"type": kind} for key, kind in properties.items()}}}}


TOOLS = [_tool("get_weather", city="string", days="integer"), _tool("run_code", code="string"),
         _tool("search_files", pattern="string", recursive="boolean", paths="array")]


def _findings(path):
    (result,) = scan_file(path)
    return [finding for finding in result.findings if finding.kind == KIND]


def _one(write_session, reply, tools=TOOLS):
    path = write_session([{"role": "user", "content": "What's the weather in Paris for the next 3 days?"},
                          {"role": "assistant", "content": reply}], tools)
    findings = _findings(path)
    assert len(findings) == 1, findings
    return findings[0]


def _assert_recovered(finding, reply, tool, arguments, span_text, cleaned):
    assert (finding.turn, finding.severity, finding.executed) == (1, ERROR, False)
    assert (finding.tool, finding.arguments) == (tool, arguments)
    assert reply[slice(*finding.span)] == span_text
    assert finding.fix.apply_to_text(reply) == cleaned
    (call,) = finding.fix.add_calls
    assert (call.name, call.arguments, call.origin) == (tool, arguments, "recovered")


def test_hermes_tool_call_block(write_session):
    block = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}\n</tool_call>'
    reply = f"Let me look that up for you.\n{block}\n\nOne moment."
    finding = _one(write_session, reply)
    _assert_recovered(finding, reply, "get_weather", {"city": "Paris", "days": 3}, block + "\n\n",
                      "Let me look that up for you.\nOne moment.")


def test_hermes_block_cut_off_before_its_end_tag(write_session):
    reply = 'Checking the forecast.\n\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}'
    finding = _one(write_session, reply)
    _assert_recovered(finding, reply, "get_weather", {"city": "Paris"}, reply[len("Checking the forecast."):],
                      "Checking the forecast.")


def test_hermes_block_truncated_mid_json_is_stripped_only(write_session):
    reply = 'Checking.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Par'
    finding = _one(write_session, reply)
    assert (finding.severity, finding.tool, finding.fix.add_calls) == (WARNING, "get_weather", ())
    assert "cut off" in finding.message
    assert finding.fix.apply_to_text(reply) == "Checking."


def test_qwen3_coder_xml_values_typed_by_schema(write_session):
    block = ("<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n"
             "<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>")
    reply = f"I'll fetch the forecast.\n\n{block}"
    finding = _one(write_session, reply)
    _assert_recovered(finding, reply, "get_weather", {"city": "Paris", "days": 3}, "\n\n" + block,
                      "I'll fetch the forecast.")


def test_json_fence_with_extra_braces_seed_004(write_session):
    block = '```json\n{"tool": "run_code", "arguments": {"code": "print(\'hello\')"}}}}\n```'
    reply = f"I'll write a Python script that prints hello and run it.\n\n{block}"
    finding = _one(write_session, reply)
    _assert_recovered(finding, reply, "run_code", {"code": "print('hello')"}, "\n\n" + block,
                      "I'll write a Python script that prints hello and run it.")


def test_tool_call_marker_line_and_fence_removed_together(write_session):
    block = '**TOOL CALL:**\n```tool_call\n{"name": "search_files", "arguments": {"pattern": "*.py", "recursive": true}}\n```\n'
    reply = f"Searching your project now.\n\n{block}\nI'll report back."
    finding = _one(write_session, reply)
    _assert_recovered(finding, reply, "search_files", {"pattern": "*.py", "recursive": True}, block + "\n",
                      "Searching your project now.\n\nI'll report back.")


def test_placeholder_arguments_are_stripped_only_seed_002(write_session):
    block = 'TOOL CALL:\n```tool_call\n{"name": "create_boat", "arguments": {...}}\n```\n'
    reply = f"Here is how a call looks:\n{block}Tell me the boat's name."
    finding = _one(write_session, reply)
    assert (finding.severity, finding.tool, finding.executed, finding.fix.add_calls) == (WARNING, "create_boat", None, ())
    assert "placeholder" in finding.message and "placeholder" in finding.fix.summary
    assert reply[slice(*finding.span)] == block
    assert finding.fix.apply_to_text(reply) == "Here is how a call looks:\nTell me the boat's name."


def test_mistral_array(write_session):
    block = '[TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Rome", "days": 2}}]'
    reply = f"{block}\n"
    finding = _one(write_session, reply)
    _assert_recovered(finding, reply, "get_weather", {"city": "Rome", "days": 2}, reply, "")


def test_mistral_v11_named_calls_give_one_finding_with_both_calls(write_session):
    reply = 'Sure.\n[TOOL_CALLS]get_weather{"city": "Rome"}[TOOL_CALLS]run_code[ARGS]{"code": "1+1"}'
    finding = _one(write_session, reply)
    assert [(c.name, c.arguments) for c in finding.fix.add_calls] == [
        ("get_weather", {"city": "Rome"}), ("run_code", {"code": "1+1"})]
    assert finding.fix.apply_to_text(reply) == "Sure."
    assert len({c.id for c in finding.fix.add_calls}) == 2


def test_llama_python_tag_with_parameters(write_session):
    reply = '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Oslo"}}'
    finding = _one(write_session, reply)
    _assert_recovered(finding, reply, "get_weather", {"city": "Oslo"}, reply, "")


def test_gemini_tool_code_fence_read_with_ast(write_session):
    block = '```tool_code\nprint(default_api.get_weather(city="Lima", days=2))\n```'
    reply = f"Let me check the weather in Lima.\n{block}\n"
    finding = _one(write_session, reply)
    _assert_recovered(finding, reply, "get_weather", {"city": "Lima", "days": 2}, "\n" + block + "\n",
                      "Let me check the weather in Lima.")


def test_tool_code_with_a_non_literal_is_not_evaluated(write_session):
    reply = '```tool_code\nprint(default_api.run_code(code=__import__("os").getcwd()))\n```'
    finding = _one(write_session, reply)
    assert finding.severity == WARNING and finding.fix.add_calls == ()


def test_anthropic_style_function_calls_xml(write_session):
    block = ('<function_calls>\n<invoke name="search_files">\n<parameter name="pattern">TODO</parameter>\n'
             '<parameter name="recursive">false</parameter>\n<parameter name="paths">["src", "tests"]</parameter>\n'
             '</invoke>\n</function_calls>')
    reply = f"I'll search for TODO markers.\n\n{block}"
    finding = _one(write_session, reply)
    _assert_recovered(finding, reply, "search_files",
                      {"pattern": "TODO", "recursive": False, "paths": ["src", "tests"]}, "\n\n" + block,
                      "I'll search for TODO markers.")


def test_minimax_tool_call_with_two_invokes(write_session):
    reply = ('<minimax:tool_call>\n<invoke name="get_weather"><parameter name="city">Bern</parameter></invoke>\n'
             '<invoke name="run_code"><parameter name="code">print(1)</parameter></invoke>\n</minimax:tool_call>')
    finding = _one(write_session, reply)
    assert [(c.name, c.arguments) for c in finding.fix.add_calls] == [
        ("get_weather", {"city": "Bern"}), ("run_code", {"code": "print(1)"})]
    assert finding.fix.apply_to_text(reply) == ""


def test_lm_studio_tool_request(write_session):
    block = '[TOOL_REQUEST]\n{"name": "get_weather", "arguments": {"city": "Kyiv"}}\n[END_TOOL_REQUEST]'
    reply = f"{block}\nFetching it now."
    finding = _one(write_session, reply)
    _assert_recovered(finding, reply, "get_weather", {"city": "Kyiv"}, block + "\n", "Fetching it now.")


def test_bare_call_object_naming_a_known_tool(write_session):
    reply = '{"name": "get_weather", "arguments": {"city": "Nice"}}'
    finding = _one(write_session, reply)
    _assert_recovered(finding, reply, "get_weather", {"city": "Nice"}, reply, "")


def test_glaive_functioncall_with_arguments_as_a_quoted_string(write_session):
    reply = """<functioncall> {"name": "get_weather", "arguments": '{"city": "Cairo"}'} <|endoftext|>"""
    finding = _one(write_session, reply)
    _assert_recovered(finding, reply, "get_weather", {"city": "Cairo"}, reply, "")


def test_several_blocks_give_several_findings_in_order(write_session):
    reply = ('First the weather:\n<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>\n'
             'Then the code:\n<tool_call>{"name": "run_code", "arguments": {"code": "2*2"}}</tool_call>')
    path = write_session([{"role": "assistant", "content": reply}], TOOLS)
    first, second = _findings(path)
    assert (first.tool, second.tool) == ("get_weather", "run_code")
    assert first.span[1] <= second.span[0]
    assert first.fix.add_calls[0].id != second.fix.add_calls[0].id


@pytest.mark.parametrize("reply", [
    "Your server should wrap each call in `<tool_call>` tags, or use `[TOOL_CALLS]` for Mistral.",
    "Models like Hermes emit <tool_call> tags around a JSON object when they call a tool.",
    '```json\n{"name": "my-app", "version": "1.0.0", "scripts": {"test": "pytest"}}\n```',
    '```json\n{"name": "get_weather", "forecast": [{"day": 1, "high": 21}]}\n```',
    '```python\ntools = [{"name": "get_weather", "arguments": {"city": "Paris"}}]\nprint(tools)\n```',
    '```python\nprompt = "<tool_call>{\\"name\\": \\"x\\", \\"arguments\\": {}}</tool_call>"\n```',
    '{"name": "Paris", "arguments": "none"} is a funny object.',
    '{"name": "not_a_tool", "arguments": {"x": 1}}',
    "Here is the forecast: 21°C and sunny.",
])
def test_look_alikes_stay_clean(write_session, reply):
    path = write_session([{"role": "user", "content": "hello"}, {"role": "assistant", "content": reply}], TOOLS)
    assert _findings(path) == []


def test_user_turns_are_never_flagged(write_session):
    path = write_session([
        {"role": "user", "content": '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>'},
        {"role": "system", "content": '```json\n{"name": "run_code", "arguments": {"code": "1"}}\n```'},
        {"role": "assistant", "content": "I can do that."},
    ], TOOLS)
    assert _findings(path) == []


def test_fix_output_rescans_clean_with_the_calls_structured(write_session, tmp_path, capsys):
    path = write_session([
        {"role": "user", "content": "Weather in Paris, then run 2*2."},
        {"role": "assistant", "content": 'On it.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>'},
        {"role": "user", "content": "And the code?"},
        {"role": "assistant", "content": 'Running it.\n\n```json\n{"tool": "run_code", "arguments": {"code": "2*2"}}\n```'},
    ], TOOLS)
    out = tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", KIND, "-o", str(out)]) == 1
    assert _findings(out) == []
    messages = json.loads(out.read_text())["messages"]
    calls = [(c["function"]["name"], json.loads(c["function"]["arguments"]))
             for m in messages for c in m.get("tool_calls") or []]
    assert calls == [("get_weather", {"city": "Paris"}), ("run_code", {"code": "2*2"})]
    texts = [m["content"] for m in messages if m["role"] == "assistant" and m.get("content")]
    assert texts == ["On it.", "Running it."]
