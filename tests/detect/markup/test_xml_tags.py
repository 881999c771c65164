"""Detector `tool-markup`, families whose parameters are XML-style elements: Qwen3-Coder,
Functionary, Seed-OSS, GLM-4.5/4.6/4.7, Anthropic-style `<invoke>`, MiniMax, OLMo 3 and DeepSeek
DSML. Text values are typed by the tool's schema."""

import pytest

from tests.helpers.markup import CASE_FIELDS, TOOLS, assert_recovered, markup_findings, one_finding

QWEN3 = (
    "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n"
    "<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>"
)
ANTHROPIC = (
    '<function_calls>\n<invoke name="search_files">\n<parameter name="pattern">TODO</parameter>\n'
    '<parameter name="recursive">false</parameter>\n<parameter name="paths">["src", "tests"]</parameter>\n'
    "</invoke>\n</function_calls>"
)
FUNCTIONARY = '<function=get_weather>{"city": "Quito", "days": 4}</function>'
GLM = (
    "<tool_call>search_files\n<arg_key>pattern</arg_key>\n<arg_value>*.log</arg_value>\n"
    "<arg_key>recursive</arg_key>\n<arg_value>true</arg_value>\n"
    '<arg_key>paths</arg_key>\n<arg_value>["var", "tmp"]</arg_value>\n</tool_call>'
)
GLM_NUMERIC_TEXT = "<tool_call>run_code\n<arg_key>code</arg_key>\n<arg_value>42</arg_value>\n</tool_call>"
SEED_OSS = (
    "<seed:tool_call>\n<function=get_weather>\n<parameter=city>Hanoi</parameter>\n"
    "<parameter=days>7</parameter>\n</function>\n</seed:tool_call>"
)
DSML = (
    '<｜DSML｜function_calls>\n<｜DSML｜invoke name="search_files">\n'
    '<｜DSML｜parameter name="pattern" string="true">TODO</｜DSML｜parameter>\n'
    '<｜DSML｜parameter name="recursive" string="false">true</｜DSML｜parameter>\n'
    '<｜DSML｜parameter name="paths" string="false">["src"]</｜DSML｜parameter>\n'
    "</｜DSML｜invoke>\n</｜DSML｜function_calls>"
)


@pytest.mark.parametrize(
    CASE_FIELDS,
    [
        pytest.param(
            "qwen3-coder",
            f"I'll fetch the forecast.\n\n{QWEN3}",
            "get_weather",
            {"city": "Paris", "days": 3},
            "\n\n" + QWEN3,
            "I'll fetch the forecast.",
            id="qwen3-coder-typed-by-schema",
        ),
        pytest.param(
            "anthropic-xml",
            f"I'll search for TODO markers.\n\n{ANTHROPIC}",
            "search_files",
            {"pattern": "TODO", "recursive": False, "paths": ["src", "tests"]},
            "\n\n" + ANTHROPIC,
            "I'll search for TODO markers.",
            id="anthropic-style-invoke",
        ),
        pytest.param(
            "functionary",
            f"Fetching the Quito forecast.\n{FUNCTIONARY}\nI'll summarise it next.",
            "get_weather",
            {"city": "Quito", "days": 4},
            FUNCTIONARY + "\n",
            "Fetching the Quito forecast.\nI'll summarise it next.",
            id="functionary-json",
        ),
        pytest.param(
            "glm",
            f"I'll look for log files under var and tmp.\n{GLM}",
            "search_files",
            {"pattern": "*.log", "recursive": True, "paths": ["var", "tmp"]},
            "\n" + GLM,
            "I'll look for log files under var and tmp.",
            id="glm-typed-by-schema",
        ),
        pytest.param(
            "glm",
            f"Running the snippet.\n\n{GLM_NUMERIC_TEXT}\n\nDone.",
            "run_code",
            {"code": "42"},
            GLM_NUMERIC_TEXT + "\n\n",
            "Running the snippet.\n\nDone.",
            id="glm-string-parameter-stays-text",
        ),
        pytest.param(
            "seed-oss",
            f"A week in Hanoi, let me see.\n{SEED_OSS}\nHere is what I found:",
            "get_weather",
            {"city": "Hanoi", "days": 7},
            SEED_OSS + "\n",
            "A week in Hanoi, let me see.\nHere is what I found:",
            id="seed-oss",
        ),
        pytest.param(
            "deepseek-dsml",
            f"Searching src for TODOs.\n\n{DSML}",
            "search_files",
            {"pattern": "TODO", "recursive": True, "paths": ["src"]},
            "\n\n" + DSML,
            "Searching src for TODOs.",
            id="deepseek-dsml-string-false-is-json",
        ),
    ],
)
def test_one_leaked_call_is_recovered(write_session, family, reply, tool, arguments, removed, cleaned):
    assert_recovered(one_finding(write_session, reply, family=family), reply, tool, arguments, removed, cleaned)


def test_minimax_tool_call_with_two_invokes(write_session):
    reply = (
        '<minimax:tool_call>\n<invoke name="get_weather"><parameter name="city">Bern</parameter></invoke>\n'
        '<invoke name="run_code"><parameter name="code">print(1)</parameter></invoke>\n</minimax:tool_call>'
    )
    finding = one_finding(write_session, reply, family="minimax")
    assert [(c.name, c.arguments) for c in finding.fix.add_calls] == [
        ("get_weather", {"city": "Bern"}),
        ("run_code", {"code": "print(1)"}),
    ]
    assert finding.fix.apply_to_text(reply) == ""


def test_olmo_function_calls_with_one_pythonic_call_per_line(write_session):
    block = (
        '<function_calls>\nget_weather(city="Lagos", days=2)\n'
        'search_files(pattern="forecast", recursive=True)\n</function_calls>'
    )
    reply = f"Let me do both.\n\n{block}"
    finding = one_finding(write_session, reply, family="olmo")
    assert [(c.name, c.arguments) for c in finding.fix.add_calls] == [
        ("get_weather", {"city": "Lagos", "days": 2}),
        ("search_files", {"pattern": "forecast", "recursive": True}),
    ]
    assert reply[slice(*finding.span)] == "\n\n" + block
    assert finding.fix.apply_to_text(reply) == "Let me do both."


@pytest.mark.parametrize(
    "family, block",
    [
        (
            "glm",
            "<tool_call>create_ticket<arg_key>title</arg_key><arg_value>Login fails</arg_value>"
            "<arg_key>priority</arg_key><arg_value>2</arg_value>"
            '<arg_key>labels</arg_key><arg_value>["auth", "bug"]</arg_value></tool_call>',
        ),
        (
            "deepseek-dsml",
            '<｜DSML｜tool_calls><｜DSML｜invoke name="create_ticket">'
            '<｜DSML｜parameter name="title" string="true">Login fails</｜DSML｜parameter>'
            '<｜DSML｜parameter name="priority" string="false">2</｜DSML｜parameter>'
            '<｜DSML｜parameter name="labels" string="false">["auth", "bug"]</｜DSML｜parameter>'
            "</｜DSML｜invoke></｜DSML｜tool_calls>",
        ),
        (
            "qwen3-coder",
            "<tool_call><function=create_ticket><parameter=title>Login fails</parameter>"
            "<parameter=priority>2</parameter>"
            '<parameter=labels>["auth", "bug"]</parameter></function></tool_call>',
        ),
        (
            "minimax",
            '<minimax:tool_call><invoke name="create_ticket"><parameter name="title">Login fails</parameter>'
            '<parameter name="priority">2</parameter>'
            '<parameter name="labels">["auth", "bug"]</parameter></invoke></minimax:tool_call>',
        ),
    ],
)
def test_values_of_an_unknown_tool_stay_as_written(write_session, family, block):
    """With no schema nothing is typed by guess: text values stay the text the model wrote, and
    only DSML, whose markup says which values are JSON (`string="false"`), gives JSON types."""
    reply = f"Filing it now.{block}"
    finding = one_finding(write_session, reply, family=family)
    if family == "deepseek-dsml":
        assert finding.fix.add_calls[0].arguments == {"title": "Login fails", "priority": 2, "labels": ["auth", "bug"]}
    else:
        assert finding.fix.add_calls[0].arguments == {
            "title": "Login fails",
            "priority": "2",
            "labels": '["auth", "bug"]',
        }
    assert finding.fix.apply_to_text(reply) == "Filing it now."


def test_prose_about_glm_tags_is_not_a_call(write_session):
    reply = "GLM writes <tool_call> then the name, with each argument in <arg_key> and <arg_value> pairs."
    path = write_session(
        [{"role": "user", "content": "How does GLM call tools?"}, {"role": "assistant", "content": reply}], TOOLS
    )
    assert markup_findings(path) == []
