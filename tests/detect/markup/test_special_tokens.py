"""Detector `tool-markup`, families written with special tokens: DeepSeek V3 / R1 and V3.1
(full-width bars, U+2581), Kimi K2, gpt-oss Harmony and Gemma 4 / FunctionGemma; and `inspector fix`
on a session that leaks several new families, re-scanned clean."""

import pytest

from tests.helpers.markup import (
    CASE_FIELDS,
    TOOLS,
    assert_recovered,
    fixed_calls_and_texts,
    markup_findings,
    one_finding,
)

DEEPSEEK_V3 = (
    "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n"
    '```json\n{"city": "Tokyo", "days": 3}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>'
)
KIMI = (
    "<|tool_calls_section_begin|>\n<|tool_call_begin|>functions.search_files:0<|tool_call_argument_begin|>"
    '{"pattern": "*.ts", "recursive": true}<|tool_call_end|>\n<|tool_calls_section_end|>'
)
HARMONY = '<|channel|>commentary to=functions.run_code <|constrain|>json<|message|>{"code": "print(2 ** 10)"}<|call|>'
GEMMA = '<|tool_call>call:get_weather{city:<|"|>Austin, TX<|"|>,days:2}<tool_call|>'


HARMONY_HEADER = (
    "<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>"
    '{"city": "Perth", "days": 2}<|call|>'
)
FUNCTION_GEMMA = (
    "<start_function_call>call:search_files{pattern:<escape>{a,b}.txt<escape>,recursive:false,"
    "paths:[<escape>home<escape>]}<end_function_call>"
)


@pytest.mark.parametrize(
    CASE_FIELDS,
    [
        pytest.param(
            "deepseek",
            f"Let me look up Tokyo's forecast.\n\n{DEEPSEEK_V3}",
            "get_weather",
            {"city": "Tokyo", "days": 3},
            "\n\n" + DEEPSEEK_V3,
            "Let me look up Tokyo's forecast.",
            id="deepseek-v3-json-fence",
        ),
        pytest.param(
            "kimi-k2",
            f"I'll list the TypeScript files.\n{KIMI}",
            "search_files",
            {"pattern": "*.ts", "recursive": True},
            "\n" + KIMI,
            "I'll list the TypeScript files.",
            id="kimi-k2",
        ),
        pytest.param(
            "harmony",
            f"{HARMONY}\n\nI asked the interpreter for 2 to the 10th.",
            "run_code",
            {"code": "print(2 ** 10)"},
            HARMONY + "\n\n",
            "I asked the interpreter for 2 to the 10th.",
            id="harmony-commentary",
        ),
        pytest.param(
            "harmony",
            f"Checking Perth.\n{HARMONY_HEADER}",
            "get_weather",
            {"city": "Perth", "days": 2},
            "\n" + HARMONY_HEADER,
            "Checking Perth.",
            id="harmony-start-header",
        ),
        pytest.param(
            "gemma",
            f"Let me check Austin for you. {GEMMA} Give me a second.",
            "get_weather",
            {"city": "Austin, TX", "days": 2},
            GEMMA + " ",
            "Let me check Austin for you. Give me a second.",
            id="gemma-4-quote-tokens",
        ),
        pytest.param(
            "gemma",
            f"Searching.\n{FUNCTION_GEMMA}",
            "search_files",
            {"pattern": "{a,b}.txt", "recursive": False, "paths": ["home"]},
            "\n" + FUNCTION_GEMMA,
            "Searching.",
            id="function-gemma-escape-tokens",
        ),
    ],
)
def test_one_leaked_call_is_recovered(write_session, family, reply, tool, arguments, removed, cleaned):
    assert_recovered(one_finding(write_session, reply, family=family), reply, tool, arguments, removed, cleaned)


def test_deepseek_v31_two_calls_without_fences(write_session):
    block = (
        '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Seoul"}<｜tool▁call▁end｜>'
        '<｜tool▁call▁begin｜>run_code<｜tool▁sep｜>{"code": "print(1)"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>'
    )
    reply = f"Doing both now.{block}\nResults follow."
    finding = one_finding(write_session, reply, family="deepseek")
    assert [(c.name, c.arguments) for c in finding.fix.add_calls] == [
        ("get_weather", {"city": "Seoul"}),
        ("run_code", {"code": "print(1)"}),
    ]
    assert reply[slice(*finding.span)] == block + "\n"
    assert finding.fix.apply_to_text(reply) == "Doing both now.Results follow."


def test_harmony_final_channel_is_not_a_call(write_session):
    reply = "<|channel|>final<|message|>It will be sunny in Paris."
    path = write_session([{"role": "user", "content": "Weather?"}, {"role": "assistant", "content": reply}], TOOLS)
    assert markup_findings(path) == []


def test_special_tokens_in_inline_code_are_not_calls(write_session):
    reply = (
        "DeepSeek opens calls with `<｜tool▁calls▁begin｜>`, Kimi with `<|tool_calls_section_begin|>`, "
        "gpt-oss addresses them with `<|channel|>commentary to=functions.x`, Gemma with `<|tool_call>`."
    )
    path = write_session(
        [{"role": "user", "content": "Compare the formats."}, {"role": "assistant", "content": reply}], TOOLS
    )
    assert markup_findings(path) == []


def test_fix_of_new_families_rescans_clean_with_the_calls_structured(write_session, tmp_path):
    glm = "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Lima</arg_value></tool_call>"
    path = write_session(
        [
            {"role": "user", "content": "Tokyo first."},
            {"role": "assistant", "content": f"On it.\n{DEEPSEEK_V3}"},
            {"role": "user", "content": "Now the TypeScript files."},
            {"role": "assistant", "content": f"Listing them.\n{KIMI}"},
            {"role": "user", "content": "And 2 ** 10?"},
            {"role": "assistant", "content": f"{HARMONY}\nComputing."},
            {"role": "user", "content": "Austin and Lima too."},
            {"role": "assistant", "content": f"Both. {GEMMA}\n{glm}"},
            {"role": "user", "content": "And Paris?"},
            {"role": "assistant", "content": 'Sure.\n[get_weather(city="Paris")]'},
        ],
        TOOLS,
    )
    assert len(markup_findings(path)) == 6
    calls, texts = fixed_calls_and_texts(path, tmp_path)
    assert calls == [
        ("get_weather", {"city": "Tokyo", "days": 3}),
        ("search_files", {"pattern": "*.ts", "recursive": True}),
        ("run_code", {"code": "print(2 ** 10)"}),
        ("get_weather", {"city": "Austin, TX", "days": 2}),
        ("get_weather", {"city": "Lima"}),
        ("get_weather", {"city": "Paris"}),
    ]
    assert texts == ["On it.", "Listing them.", "Computing.", "Both.", "Sure."]
