"""Detector `tool-markup`, families whose body is call-shaped JSON between markers: Mistral, Llama,
LM Studio, Glaive, Nemotron, Jamba / Hunyuan, Phi-4, LFM2 (JSON), Granite 3.x and 20B, InternLM,
Cohere. Each reply has the prose a model writes around a leaked call."""

import pytest

from tests.helpers.markup import CASE_FIELDS, assert_recovered, one_finding

MISTRAL = '[TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Rome", "days": 2}}]'
LLAMA = '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Oslo"}}'
LM_STUDIO = '[TOOL_REQUEST]\n{"name": "get_weather", "arguments": {"city": "Kyiv"}}\n[END_TOOL_REQUEST]'
GLAIVE = """<functioncall> {"name": "get_weather", "arguments": '{"city": "Cairo"}'} <|endoftext|>"""
NEMOTRON = '<TOOLCALL>[{"name": "get_weather", "arguments": {"city": "Denver", "days": 5}}]</TOOLCALL>'
PHI4 = 'functools[{"name": "search_files", "arguments": {"pattern": "*.md", "recursive": false}}]'
LFM2 = '<|tool_call_start|>[{"name": "get_weather", "arguments": {"city": "Turku"}}]<|tool_call_end|>'
GRANITE = '<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Boston", "days": 1}}]'
GRANITE_20B = '<function_call> {"name": "run_code", "arguments": {"code": "import math\\nprint(math.pi)"}}'
INTERNLM = (
    '<|action_start|><|plugin|>\n{"name": "get_weather", "parameters": {"city": "Shanghai", "days": 2}}<|action_end|>'
)
COHERE = (
    '<|START_ACTION|>[\n    {"tool_call_id": "0", "tool_name": "search_files", '
    '"parameters": {"pattern": "invoice", "paths": ["docs"]}}\n]<|END_ACTION|>'
)


@pytest.mark.parametrize(
    CASE_FIELDS,
    [
        pytest.param(
            "mistral",
            MISTRAL + "\n",
            "get_weather",
            {"city": "Rome", "days": 2},
            MISTRAL + "\n",
            "",
            id="mistral-array",
        ),
        pytest.param("llama", LLAMA, "get_weather", {"city": "Oslo"}, LLAMA, "", id="llama-parameters"),
        pytest.param(
            "lm-studio",
            LM_STUDIO + "\nFetching it now.",
            "get_weather",
            {"city": "Kyiv"},
            LM_STUDIO + "\n",
            "Fetching it now.",
            id="lm-studio",
        ),
        pytest.param("glaive", GLAIVE, "get_weather", {"city": "Cairo"}, GLAIVE, "", id="glaive-quoted-arguments"),
        pytest.param(
            "nemotron",
            f"I'll pull the five-day forecast for Denver.\n{NEMOTRON}",
            "get_weather",
            {"city": "Denver", "days": 5},
            "\n" + NEMOTRON,
            "I'll pull the five-day forecast for Denver.",
            id="nemotron",
        ),
        pytest.param(
            "phi-4",
            f"Let me find the Markdown files. {PHI4}",
            "search_files",
            {"pattern": "*.md", "recursive": False},
            " " + PHI4,
            "Let me find the Markdown files.",
            id="phi-4",
        ),
        pytest.param(
            "lfm2",
            f"{LFM2}Checking Turku now.",
            "get_weather",
            {"city": "Turku"},
            LFM2,
            "Checking Turku now.",
            id="lfm2-json",
        ),
        pytest.param(
            "granite",
            f"Sure, let me check tomorrow's weather in Boston.\n\n{GRANITE}",
            "get_weather",
            {"city": "Boston", "days": 1},
            "\n\n" + GRANITE,
            "Sure, let me check tomorrow's weather in Boston.",
            id="granite-3",
        ),
        pytest.param(
            "granite-20b",
            f"Computing pi for you.\n{GRANITE_20B}",
            "run_code",
            {"code": "import math\nprint(math.pi)"},
            "\n" + GRANITE_20B,
            "Computing pi for you.",
            id="granite-20b",
        ),
        pytest.param(
            "internlm",
            f"I need the live forecast for that.{INTERNLM}\n",
            "get_weather",
            {"city": "Shanghai", "days": 2},
            INTERNLM + "\n",
            "I need the live forecast for that.",
            id="internlm",
        ),
        pytest.param(
            "cohere",
            f"I will search the docs folder for invoices first.\n{COHERE}",
            "search_files",
            {"pattern": "invoice", "paths": ["docs"]},
            "\n" + COHERE,
            "I will search the docs folder for invoices first.",
            id="cohere",
        ),
    ],
)
def test_one_leaked_call_is_recovered(write_session, family, reply, tool, arguments, removed, cleaned):
    assert_recovered(one_finding(write_session, reply, family=family), reply, tool, arguments, removed, cleaned)


def test_mistral_v11_named_calls_give_one_finding_with_both_calls(write_session):
    reply = 'Sure.\n[TOOL_CALLS]get_weather{"city": "Rome"}[TOOL_CALLS]run_code[ARGS]{"code": "1+1"}'
    finding = one_finding(write_session, reply, family="mistral")
    assert [(c.name, c.arguments) for c in finding.fix.add_calls] == [
        ("get_weather", {"city": "Rome"}),
        ("run_code", {"code": "1+1"}),
    ]
    assert finding.fix.apply_to_text(reply) == "Sure."
    assert len({c.id for c in finding.fix.add_calls}) == 2


def test_jamba_hunyuan_tool_calls_array_with_two_calls(write_session):
    block = (
        '<tool_calls>\n[{"name": "get_weather", "arguments": {"city": "Porto"}},\n'
        ' {"name": "run_code", "arguments": {"code": "print(21 * 2)"}}]\n</tool_calls>'
    )
    reply = f"Two things at once:\n{block}\nBack shortly."
    finding = one_finding(write_session, reply, family="jamba")
    assert [(c.name, c.arguments) for c in finding.fix.add_calls] == [
        ("get_weather", {"city": "Porto"}),
        ("run_code", {"code": "print(21 * 2)"}),
    ]
    assert reply[slice(*finding.span)] == block + "\n"
    assert finding.fix.apply_to_text(reply) == "Two things at once:\nBack shortly."


def test_minimax_m1_tool_calls_with_one_object_per_line(write_session):
    block = (
        '<tool_calls>\n{"name": "get_weather", "arguments": {"city": "Lyon", "days": 2}}\n'
        '{"name": "search_files", "arguments": {"pattern": "*.pdf"}}\n</tool_calls>'
    )
    reply = f"I'll check the weather and find your PDFs.\n{block}"
    finding = one_finding(write_session, reply, family="jamba")
    assert [(c.name, c.arguments) for c in finding.fix.add_calls] == [
        ("get_weather", {"city": "Lyon", "days": 2}),
        ("search_files", {"pattern": "*.pdf"}),
    ]
    assert finding.fix.apply_to_text(reply) == "I'll check the weather and find your PDFs."
