"""Detector `tool-markup`: a closing tag written inside a value (code that prints `</tool_call>`, a
string holding `</parameter>`) does not cut the value: the value ends at the closing tag that leaves
the block well formed, the last one before the next element. A multi-line value keeps its trailing
newlines as the family's parser keeps them."""

import pytest

from tests.helpers.markup import one_finding


@pytest.mark.parametrize(
    "family, reply, code",
    [
        pytest.param(
            "qwen3-coder",
            '<tool_call>\n<function=run_code>\n<parameter=code>\nlet s = "</parameter>";\n</parameter>\n'
            "</function>\n</tool_call>",
            'let s = "</parameter>";',
            id="qwen-parameter-close",
        ),
        pytest.param(
            "qwen3-coder",
            '<tool_call>\n<function=run_code>\n<parameter=code>\nhtml = "</function></tool_call>"\n</parameter>\n'
            "</function>\n</tool_call>",
            'html = "</function></tool_call>"',
            id="qwen-function-close",
        ),
        pytest.param(
            "glm",
            '<tool_call>run_code<arg_key>code</arg_key><arg_value>let s = "</arg_value>";</arg_value></tool_call>',
            'let s = "</arg_value>";',
            id="glm-value-close",
        ),
        pytest.param(
            "glm",
            '<tool_call>run_code\n<arg_key>code</arg_key>\n<arg_value>print("</tool_call>")</arg_value>\n</tool_call>',
            'print("</tool_call>")',
            id="glm-block-close",
        ),
        pytest.param(
            "minimax",
            '<minimax:tool_call>\n<invoke name="run_code">\n<parameter name="code">x = "</parameter>"</parameter>\n'
            "</invoke>\n</minimax:tool_call>",
            'x = "</parameter>"',
            id="minimax-parameter-close",
        ),
        pytest.param(
            "hermes",
            '<tool_call>\n{"name": "run_code", "arguments": {"code": "print(\\"</tool_call>\\")"}}\n</tool_call>',
            'print("</tool_call>")',
            id="hermes-json-string",
        ),
    ],
)
def test_a_closing_tag_inside_a_value_does_not_cut_it(write_session, family, reply, code):
    finding = one_finding(write_session, f"Running it.\n{reply}\nDone.", family=family)
    assert [(c.name, c.arguments) for c in finding.fix.add_calls] == [("run_code", {"code": code})]
    assert finding.fix.apply_to_text(f"Running it.\n{reply}\nDone.") == "Running it.\nDone."


def test_two_blocks_each_keep_their_own_values(write_session):
    block = "<tool_call>run_code<arg_key>code</arg_key><arg_value>{}</arg_value></tool_call>"
    reply = f"First.\n{block.format('a = 1')}\nThen.\n{block.format('b = 2')}"
    path = write_session([{"role": "user", "content": "Go"}, {"role": "assistant", "content": reply}])
    from tests.helpers.markup import markup_findings

    assert [c.arguments for f in markup_findings(path) for c in f.fix.add_calls] == [
        {"code": "a = 1"},
        {"code": "b = 2"},
    ]


@pytest.mark.parametrize(
    "family, reply, code",
    [
        pytest.param(
            "qwen3-coder",
            "<tool_call>\n<function=run_code>\n<parameter=code>\nline 1\nline 2\n\n</parameter>\n</function>\n</tool_call>",
            "line 1\nline 2\n",
            id="qwen-drops-one-layout-newline-each-side",
        ),
        pytest.param(
            "glm",
            "<tool_call>run_code\n<arg_key>code</arg_key>\n<arg_value>line 1\nline 2\n</arg_value>\n</tool_call>",
            "line 1\nline 2\n",
            id="glm-keeps-the-value-as-written",
        ),
    ],
)
def test_trailing_newlines_of_a_multi_line_value_as_the_family_keeps_them(write_session, family, reply, code):
    finding = one_finding(write_session, f"Running it.\n{reply}", family=family)
    assert [c.arguments for c in finding.fix.add_calls] == [{"code": code}]
