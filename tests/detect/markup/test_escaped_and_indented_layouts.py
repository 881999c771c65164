"""Detector `tool-markup` on the layouts vLLM's and SGLang's parsers accept (their facts, replies
written here): GLM's calls escaped once more, Qwen3-Coder's and Anthropic's parameters laid out
with indentation, taken off unless it is the value's own; hostile sizes."""

from __future__ import annotations

import pytest

from tests.helpers.markup import EDIT_FILE, _tool, assert_recovered, assert_scans_fast, calls_of, one_finding, repeat

TODO_WRITE = _tool("todo_write", todos="array")
SEND_MESSAGE = _tool("send_message", recipient="string", message="string")


def test_glm_escaped_once_more_reads_its_values_back(write_session):
    block = (
        '<tool_call>todo_write\\n<arg_key>todos</arg_key>\\n<arg_value>[{\\"id\\": \\"1\\", \\"task\\": '
        '\\"Audit the backend\\", \\"status\\": \\"in_progress\\"}]</arg_value>\\n</tool_call>'
    )
    reply = f"Updating the plan.\n{block}"
    finding = one_finding(write_session, reply, [TODO_WRITE], "glm")
    assert calls_of(finding) == [
        ("todo_write", {"todos": [{"id": "1", "task": "Audit the backend", "status": "in_progress"}]})
    ]
    assert finding.fix.apply_to_text(reply) == "Updating the plan."


def test_glm_escaped_string_values_lose_their_escapes(write_session):
    block = (
        "<tool_call>send_message\\n<arg_key>recipient</arg_key>\\n<arg_value>Amy</arg_value>\\n"
        '<arg_key>message</arg_key>\\n<arg_value>She said \\"see you at 5\\"\\nBring the keys.</arg_value>'
        "\\n</tool_call>"
    )
    finding = one_finding(write_session, f"Sending it now.\n{block}", [SEND_MESSAGE], "glm")
    assert calls_of(finding) == [
        ("send_message", {"recipient": "Amy", "message": 'She said "see you at 5"\nBring the keys.'})
    ]


def test_glm_with_real_newlines_keeps_backslashes_as_written(write_session):
    block = (
        '<tool_call>run_code\n<arg_key>code</arg_key>\n<arg_value>print("a\\"b")\\nprint(1)</arg_value>\n</tool_call>'
    )
    finding = one_finding(write_session, f"Running it.\n{block}", family="glm")
    assert calls_of(finding) == [("run_code", {"code": 'print("a\\"b")\\nprint(1)'})]


def test_glm_escaped_value_that_is_not_string_text_is_kept_as_written(write_session):
    block = (
        '<tool_call>run_code\\n<arg_key>code</arg_key>\\n<arg_value>open("C:\\Users\\me")</arg_value>\\n</tool_call>'
    )
    finding = one_finding(write_session, block, family="glm")
    assert calls_of(finding) == [("run_code", {"code": 'open("C:\\Users\\me")'})]


def test_qwen3_coder_indented_markup_loses_its_indentation(write_session):
    block = (
        "<tool_call>\n    <function=get_weather>\n        <parameter=city>\n        Dallas\n        </parameter>\n"
        "        <parameter=days>\n        4\n        </parameter>\n    </function>\n</tool_call>"
    )
    reply = f"I'll check the weather.{block}"
    finding = one_finding(write_session, reply, family="qwen3-coder")
    assert_recovered(finding, reply, "get_weather", {"city": "Dallas", "days": 4}, block, "I'll check the weather.")


def test_qwen3_coder_indented_code_keeps_its_own_indentation(write_session):
    block = (
        "<tool_call>\n  <function=edit_file>\n    <parameter=path>\n    app.py\n    </parameter>\n"
        "    <parameter=new_string>\n    if x:\n\n        return 1\n    </parameter>\n  </function>\n</tool_call>"
    )
    finding = one_finding(write_session, f"Fixing the guard clause.\n{block}", [EDIT_FILE], "qwen3-coder")
    assert calls_of(finding) == [("edit_file", {"path": "app.py", "new_string": "if x:\n\n    return 1"})]


@pytest.mark.parametrize(
    "value, expected",
    [
        ("\n    x = 1\n", "    x = 1"),  # closing tag not indented: the value's indentation is its own
        ("\n  a\nb\n  ", "  a\nb"),  # a line without the closing tag's indentation: nothing is taken off
        ("    x = 1", "    x = 1"),  # inline: as written
    ],
    ids=["closing-tag-not-indented", "uneven-lines", "inline"],
)
def test_qwen3_coder_values_whose_indentation_is_content(write_session, value, expected):
    reply = (
        f"Running it.\n<tool_call>\n<function=run_code>\n<parameter=code>{value}</parameter>\n</function>\n</tool_call>"
    )
    finding = one_finding(write_session, reply, family="qwen3-coder")
    assert calls_of(finding) == [("run_code", {"code": expected})]


def test_invoke_parameters_laid_out_with_indentation(write_session):
    block = (
        '<function_calls>\n  <invoke name="search_files">\n    <parameter name="pattern">\n      TODO\n'
        "    </parameter>\n  </invoke>\n</function_calls>"
    )
    finding = one_finding(write_session, f"Searching.\n{block}", family="anthropic-xml")
    assert calls_of(finding) == [("search_files", {"pattern": "TODO"})]


@pytest.mark.parametrize(
    "text",
    [
        repeat('<tool_call>f\\n<arg_key>q</arg_key>\\n<arg_value>\\"', 300_000),
        "<tool_call>f" + repeat("\\n \\n", 300_000),
        "<tool_call>f\\n<arg_key>q</arg_key>" + repeat("\\n", 300_000) + "<arg_value>" + repeat('\\"', 100_000),
        "<tool_call>\n<function=f>\n<parameter=q>\n" + repeat("    x\n", 300_000) + "    </parameter>",
        "<function=f><parameter=q>" + repeat("\n" + " " * 50, 300_000) + "</parameter>",
    ],
    ids=[
        "escaped-glm-blocks",
        "escaped-newlines-after-a-name",
        "long-escaped-gap-and-value",
        "indented-value",
        "blank-indented-lines",
    ],
)
def test_layouts_hostile_size_scans_fast(tmp_path, text):
    assert_scans_fast(tmp_path, text)
