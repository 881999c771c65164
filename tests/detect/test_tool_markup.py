"""Detector `tool-markup` on real OpenAI session files: each leaked family is found, its call
parsed and recovered, the markup stripped; look-alikes (inline code, package.json, code examples,
user turns) stay clean."""

import pytest

from inspector.model import WARNING
from tests.helpers.markup import TOOLS, assert_recovered, fixed_calls_and_texts, markup_findings, one_finding

KIND = "tool-markup"


def test_hermes_tool_call_block(write_session):
    block = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}\n</tool_call>'
    reply = f"Let me look that up for you.\n{block}\n\nOne moment."
    finding = one_finding(write_session, reply)
    assert_recovered(
        finding,
        reply,
        "get_weather",
        {"city": "Paris", "days": 3},
        block + "\n\n",
        "Let me look that up for you.\nOne moment.",
    )


def test_hermes_block_whose_arguments_quote_the_marker(write_session):
    block = '<tool_call>\n{"name": "run_code", "arguments": {"code": "print(\'<tool_call>\')"}}\n</tool_call>'
    reply = f"Printing the tag.\n{block}"
    finding = one_finding(write_session, reply, family="hermes")
    assert_recovered(finding, reply, "run_code", {"code": "print('<tool_call>')"}, "\n" + block, "Printing the tag.")


def test_hermes_block_cut_off_before_its_end_tag(write_session):
    reply = 'Checking the forecast.\n\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}'
    finding = one_finding(write_session, reply)
    assert_recovered(
        finding,
        reply,
        "get_weather",
        {"city": "Paris"},
        reply[len("Checking the forecast.") :],
        "Checking the forecast.",
    )


def test_hermes_block_truncated_mid_json_is_completed_as_a_guess(write_session):
    reply = 'Checking.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Par'
    finding = one_finding(write_session, reply)
    assert (finding.severity, finding.tool, finding.arguments) == (WARNING, "get_weather", {"city": "Par"})
    assert "cut off" in finding.message and "GUESSED" in finding.message
    assert [(call.name, call.arguments) for call in finding.fix.add_calls] == [("get_weather", {"city": "Par"})]
    assert finding.fix.apply_to_text(reply) == "Checking."


def test_repeated_broken_blocks_each_end_where_the_next_begins(write_session):
    broken = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"\n'
    reply = "Trying again.\n" + broken * 3
    path = write_session([{"role": "user", "content": "Weather?"}, {"role": "assistant", "content": reply}], TOOLS)
    findings = markup_findings(path)
    assert [(f.severity, f.tool) for f in findings] == [(WARNING, "get_weather")] * 3
    # the last one, cut off by the end of the reply, is completed as a guess; the others are broken
    assert [[call.arguments for call in f.fix.add_calls] for f in findings] == [[], [], [{"city": "Paris"}]]
    assert [reply[slice(*f.span)].strip() for f in findings] == [broken.strip()] * 3
    assert findings[0].fix.apply_to_text(reply) == "Trying again.\n" + broken * 2


def test_json_fence_with_extra_braces_seed_004(write_session):
    block = '```json\n{"tool": "run_code", "arguments": {"code": "print(\'hello\')"}}}}\n```'
    reply = f"I'll write a Python script that prints hello and run it.\n\n{block}"
    finding = one_finding(write_session, reply)
    assert_recovered(
        finding,
        reply,
        "run_code",
        {"code": "print('hello')"},
        "\n\n" + block,
        "I'll write a Python script that prints hello and run it.",
    )


def test_tool_call_marker_line_and_fence_removed_together(write_session):
    block = '**TOOL CALL:**\n```tool_call\n{"name": "search_files", "arguments": {"pattern": "*.py", "recursive": true}}\n```\n'
    reply = f"Searching your project now.\n\n{block}\nI'll report back."
    finding = one_finding(write_session, reply)
    assert_recovered(
        finding,
        reply,
        "search_files",
        {"pattern": "*.py", "recursive": True},
        block + "\n",
        "Searching your project now.\n\nI'll report back.",
    )


def test_placeholder_arguments_are_stripped_only_seed_002(write_session):
    block = 'TOOL CALL:\n```tool_call\n{"name": "create_boat", "arguments": {...}}\n```\n'
    reply = f"Here is how a call looks:\n{block}Tell me the boat's name."
    finding = one_finding(write_session, reply)
    assert (finding.severity, finding.tool, finding.executed, finding.fix.add_calls) == (
        WARNING,
        "create_boat",
        None,
        (),
    )
    assert "placeholder" in finding.message and "placeholder" in finding.fix.summary
    assert reply[slice(*finding.span)] == block
    assert finding.fix.apply_to_text(reply) == "Here is how a call looks:\nTell me the boat's name."


def test_bare_call_object_naming_a_known_tool(write_session):
    reply = '{"name": "get_weather", "arguments": {"city": "Nice"}}'
    finding = one_finding(write_session, reply)
    assert_recovered(finding, reply, "get_weather", {"city": "Nice"}, reply, "")


@pytest.mark.parametrize(
    "reply",
    [
        '\n  {"name": "get_weather", "arguments": {"city": "Nice"}}',  # white space before the object
        '{"name": "get_weather", "arguments": {"city": "Nice"}}\n\n',  # and after it
        '\t[{"name": "get_weather", "arguments": {"city": "Nice"}}]',  # a list of calls, white space first
        '[{"name": "get_weather", "arguments": {"city": "Nice"}}] \n',  # and after it
    ],
)
def test_a_call_object_or_list_filling_the_reply_is_read_past_white_space(write_session, reply):
    # The prefilter looks at the reply's first and last characters; white space there must not hide a call.
    finding = one_finding(write_session, reply)
    assert (finding.tool, finding.fix.add_calls[0].arguments) == ("get_weather", {"city": "Nice"})
    assert finding.fix.apply_to_text(reply).strip() == ""


def test_several_blocks_give_several_findings_in_order(write_session):
    reply = (
        'First the weather:\n<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>\n'
        'Then the code:\n<tool_call>{"name": "run_code", "arguments": {"code": "2*2"}}</tool_call>'
    )
    path = write_session([{"role": "assistant", "content": reply}], TOOLS)
    first, second = markup_findings(path)
    assert (first.tool, second.tool) == ("get_weather", "run_code")
    assert first.span[1] <= second.span[0]
    assert first.fix.add_calls[0].id != second.fix.add_calls[0].id


@pytest.mark.parametrize(
    "reply",
    [
        "Your server should wrap each call in `<tool_call>` tags, or use `[TOOL_CALLS]` for Mistral.",
        "Models like Hermes emit <tool_call> tags around a JSON object when they call a tool.",
        '```json\n{"name": "my-app", "version": "1.0.0", "scripts": {"test": "pytest"}}\n```',
        '```json\n{"name": "get_weather", "forecast": [{"day": 1, "high": 21}]}\n```',
        '```python\ntools = [{"name": "get_weather", "arguments": {"city": "Paris"}}]\nprint(tools)\n```',
        '```python\nprompt = "<tool_call>{\\"name\\": \\"x\\", \\"arguments\\": {}}</tool_call>"\n```',
        '{"name": "Paris", "arguments": "none"} is a funny object.',
        '{"name": "not_a_tool", "arguments": {"x": 1}}',
        "Here is the forecast: 21°C and sunny.",
        "Granite marks a call with `<|tool_call|>`, Cohere with `<|START_ACTION|>`, InternLM with `<|plugin|>`.",
        "Claude-style agents put <function_calls> blocks in the prompt; ours do not.",
        "The parser strips <|python_tag|> and <TOOLCALL> before it reads the reply.",
        '```json\n[{"city": "Paris", "high": 21}, {"city": "Rome", "high": 24}]\n```',
        '```json\n{"name": "Quarterly report", "parameters": {"pages": 12}, "author": "Sam"}\n```',
        '```js\nconst call = {name: "get_weather", arguments: {city: "Paris"}};\n```',
        '```json\n{"name": "", "arguments": {}}\n```',  # a call's shape, naming no tool
        '```tool_call\n[{"tool": "", "parameters": {"city": "Paris"}}]\n```',
    ],
)
def test_look_alikes_stay_clean(write_session, reply):
    path = write_session([{"role": "user", "content": "hello"}, {"role": "assistant", "content": reply}], TOOLS)
    assert markup_findings(path) == []


def test_user_turns_are_never_flagged(write_session):
    path = write_session(
        [
            {
                "role": "user",
                "content": '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>',
            },
            {"role": "system", "content": '```json\n{"name": "run_code", "arguments": {"code": "1"}}\n```'},
            {"role": "user", "content": '[get_weather(city="Paris")]'},
            {
                "role": "user",
                "content": "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Rome</arg_value></tool_call>",
            },
            {"role": "user", "content": '<|tool_call>call:get_weather{city:<|"|>Oslo<|"|>}<tool_call|>'},
            {"role": "assistant", "content": "I can do that."},
        ],
        TOOLS,
    )
    assert markup_findings(path) == []


def test_fix_output_rescans_clean_with_the_calls_structured(write_session, tmp_path):
    path = write_session(
        [
            {"role": "user", "content": "Weather in Paris, then run 2*2."},
            {
                "role": "assistant",
                "content": 'On it.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>',
            },
            {"role": "user", "content": "And the code?"},
            {
                "role": "assistant",
                "content": 'Running it.\n\n```json\n{"tool": "run_code", "arguments": {"code": "2*2"}}\n```',
            },
        ],
        TOOLS,
    )
    calls, texts = fixed_calls_and_texts(path, tmp_path)
    assert calls == [("get_weather", {"city": "Paris"}), ("run_code", {"code": "2*2"})]
    assert texts == ["On it.", "Running it."]
