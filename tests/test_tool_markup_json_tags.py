"""Detector `tool-markup`, families whose body is call-shaped JSON between markers: Mistral, Llama,
LM Studio, Glaive, Nemotron, Jamba / Hunyuan, Phi-4, LFM2 (JSON), Granite 3.x and 20B, InternLM,
Cohere. Each reply has the prose a model writes around a leaked call."""

from test_tool_markup import assert_recovered, one_finding


def test_mistral_array(write_session):
    block = '[TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Rome", "days": 2}}]'
    reply = f"{block}\n"
    finding = one_finding(write_session, reply)
    assert_recovered(finding, reply, "get_weather", {"city": "Rome", "days": 2}, reply, "")


def test_mistral_v11_named_calls_give_one_finding_with_both_calls(write_session):
    reply = 'Sure.\n[TOOL_CALLS]get_weather{"city": "Rome"}[TOOL_CALLS]run_code[ARGS]{"code": "1+1"}'
    finding = one_finding(write_session, reply)
    assert [(c.name, c.arguments) for c in finding.fix.add_calls] == [
        ("get_weather", {"city": "Rome"}), ("run_code", {"code": "1+1"})]
    assert finding.fix.apply_to_text(reply) == "Sure."
    assert len({c.id for c in finding.fix.add_calls}) == 2


def test_llama_python_tag_with_parameters(write_session):
    reply = '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Oslo"}}'
    finding = one_finding(write_session, reply)
    assert_recovered(finding, reply, "get_weather", {"city": "Oslo"}, reply, "")


def test_lm_studio_tool_request(write_session):
    block = '[TOOL_REQUEST]\n{"name": "get_weather", "arguments": {"city": "Kyiv"}}\n[END_TOOL_REQUEST]'
    reply = f"{block}\nFetching it now."
    finding = one_finding(write_session, reply)
    assert_recovered(finding, reply, "get_weather", {"city": "Kyiv"}, block + "\n", "Fetching it now.")


def test_glaive_functioncall_with_arguments_as_a_quoted_string(write_session):
    reply = """<functioncall> {"name": "get_weather", "arguments": '{"city": "Cairo"}'} <|endoftext|>"""
    finding = one_finding(write_session, reply)
    assert_recovered(finding, reply, "get_weather", {"city": "Cairo"}, reply, "")


def test_nemotron_toolcall_array(write_session):
    block = '<TOOLCALL>[{"name": "get_weather", "arguments": {"city": "Denver", "days": 5}}]</TOOLCALL>'
    reply = f"I'll pull the five-day forecast for Denver.\n{block}"
    finding = one_finding(write_session, reply, family="nemotron")
    assert_recovered(finding, reply, "get_weather", {"city": "Denver", "days": 5}, "\n" + block,
                     "I'll pull the five-day forecast for Denver.")


def test_jamba_hunyuan_tool_calls_array_with_two_calls(write_session):
    block = ('<tool_calls>\n[{"name": "get_weather", "arguments": {"city": "Porto"}},\n'
             ' {"name": "run_code", "arguments": {"code": "print(21 * 2)"}}]\n</tool_calls>')
    reply = f"Two things at once:\n{block}\nBack shortly."
    finding = one_finding(write_session, reply, family="jamba")
    assert [(c.name, c.arguments) for c in finding.fix.add_calls] == [
        ("get_weather", {"city": "Porto"}), ("run_code", {"code": "print(21 * 2)"})]
    assert reply[slice(*finding.span)] == block + "\n"
    assert finding.fix.apply_to_text(reply) == "Two things at once:\nBack shortly."


def test_phi4_functools_list(write_session):
    block = 'functools[{"name": "search_files", "arguments": {"pattern": "*.md", "recursive": false}}]'
    reply = f"Let me find the Markdown files. {block}"
    finding = one_finding(write_session, reply, family="phi-4")
    assert_recovered(finding, reply, "search_files", {"pattern": "*.md", "recursive": False}, " " + block,
                     "Let me find the Markdown files.")


def test_lfm2_json_between_its_tokens(write_session):
    block = '<|tool_call_start|>[{"name": "get_weather", "arguments": {"city": "Turku"}}]<|tool_call_end|>'
    reply = f"{block}Checking Turku now."
    finding = one_finding(write_session, reply, family="lfm2")
    assert_recovered(finding, reply, "get_weather", {"city": "Turku"}, block, "Checking Turku now.")


def test_granite_3_tool_call_token_with_an_array(write_session):
    block = '<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Boston", "days": 1}}]'
    reply = f"Sure, let me check tomorrow's weather in Boston.\n\n{block}"
    finding = one_finding(write_session, reply, family="granite")
    assert_recovered(finding, reply, "get_weather", {"city": "Boston", "days": 1}, "\n\n" + block,
                     "Sure, let me check tomorrow's weather in Boston.")


def test_granite_20b_function_call(write_session):
    block = '<function_call> {"name": "run_code", "arguments": {"code": "import math\\nprint(math.pi)"}}'
    reply = f"Computing pi for you.\n{block}"
    finding = one_finding(write_session, reply, family="granite-20b")
    assert_recovered(finding, reply, "run_code", {"code": "import math\nprint(math.pi)"}, "\n" + block,
                     "Computing pi for you.")


def test_internlm_plugin_action_with_parameters(write_session):
    block = '<|action_start|><|plugin|>\n{"name": "get_weather", "parameters": {"city": "Shanghai", "days": 2}}<|action_end|>'
    reply = f"I need the live forecast for that.{block}\n"
    finding = one_finding(write_session, reply, family="internlm")
    assert_recovered(finding, reply, "get_weather", {"city": "Shanghai", "days": 2}, block + "\n",
                     "I need the live forecast for that.")


def test_cohere_action_list_with_tool_name_and_parameters(write_session):
    block = ('<|START_ACTION|>[\n    {"tool_call_id": "0", "tool_name": "search_files", '
             '"parameters": {"pattern": "invoice", "paths": ["docs"]}}\n]<|END_ACTION|>')
    reply = f"I will search the docs folder for invoices first.\n{block}"
    finding = one_finding(write_session, reply, family="cohere")
    assert_recovered(finding, reply, "search_files", {"pattern": "invoice", "paths": ["docs"]}, "\n" + block,
                     "I will search the docs folder for invoices first.")
