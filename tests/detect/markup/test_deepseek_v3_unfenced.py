"""DeepSeek V3 / R1 calls written without their ```` ```json ```` fence: the chat
template writes `function<｜tool▁sep｜>NAME` then a fenced object, and vLLM's and SGLang's parsers
read only that, so a call whose object follows the name on the same line or the next one is left in
the text. The tool is the name after the separator, not the call type `function` before it."""

import pytest

from inspector.model import WARNING
from tests.helpers.markup import TOOLS, assert_recovered, fixed_calls_and_texts, markup_findings, one_finding
from tests.helpers.timing import cpu_time

BEGIN, CALL, SEP = "<｜tool▁calls▁begin｜>", "<｜tool▁call▁begin｜>", "<｜tool▁sep｜>"
CALL_END, END = "<｜tool▁call▁end｜>", "<｜tool▁calls▁end｜>"
ON_ONE_LINE = f'{BEGIN}{CALL}function{SEP}get_weather {{"city": "Tokyo", "days": 3}}{CALL_END}{END}'
ON_THE_NEXT_LINE = f'{BEGIN}{CALL}function{SEP}get_weather\n{{"city": "Tokyo", "days": 3}}\n{CALL_END}{END}'


@pytest.mark.parametrize(
    "block", [pytest.param(ON_ONE_LINE, id="same-line"), pytest.param(ON_THE_NEXT_LINE, id="next-line")]
)
def test_an_unfenced_v3_call_is_recovered_under_the_name_after_the_separator(write_session, block):
    reply = f"Let me look up Tokyo's forecast.\n\n{block}"
    finding = one_finding(write_session, reply, family="deepseek")
    assert_recovered(
        finding, reply, "get_weather", {"city": "Tokyo", "days": 3}, "\n\n" + block, "Let me look up Tokyo's forecast."
    )


def test_unfenced_and_fenced_calls_in_one_section(write_session, tmp_path):
    block = (
        f'{BEGIN}{CALL}function{SEP}get_weather\n{{"city": "Oslo"}}{CALL_END}\n'
        f'{CALL}function{SEP}run_code\n```json\n{{"code": "print(1)"}}\n```{CALL_END}{END}'
    )
    path = write_session(
        [
            {"role": "user", "content": "Weather in Oslo, and run print(1)."},
            {"role": "assistant", "content": f"Doing both.\n{block}"},
        ],
        TOOLS,
    )
    (finding,) = markup_findings(path)
    assert [(call.name, call.arguments) for call in finding.fix.add_calls] == [
        ("get_weather", {"city": "Oslo"}),
        ("run_code", {"code": "print(1)"}),
    ]
    calls, texts = fixed_calls_and_texts(path, tmp_path)
    assert calls == [("get_weather", {"city": "Oslo"}), ("run_code", {"code": "print(1)"})]
    assert texts == ["Doing both."]


def test_an_unfenced_call_cut_off_in_its_arguments_is_a_guess_of_the_right_tool(write_session):
    reply = f'Checking Tokyo.\n{BEGIN}{CALL}function{SEP}get_weather\n{{"city": "Tok'
    finding = one_finding(write_session, reply, family="deepseek")
    assert (finding.severity, finding.tool, finding.arguments) == (WARNING, "get_weather", {"city": "Tok"})
    assert "GUESSED" in finding.message


@pytest.mark.parametrize(
    "leak",
    [
        pytest.param(f'{BEGIN}function{SEP}get_weather {{"city": "Tokyo"}}{CALL_END}{END}', id="call-token-missing"),
        pytest.param(f'function{SEP}get_weather\n{{"city": "Tokyo"}}{CALL_END}{END}', id="start-tokens-gone"),
        pytest.param(
            f'function{SEP}get_weather\n```json\n{{"city": "Tokyo"}}\n```{CALL_END}{END}', id="start-tokens-gone-fenced"
        ),
    ],
)
def test_a_v3_call_whose_tokens_are_partly_missing_names_the_tool(write_session, leak):
    reply = f"Checking Tokyo.\n{leak}"
    finding = one_finding(write_session, reply, family="deepseek")
    assert (finding.tool, finding.arguments) == ("get_weather", {"city": "Tokyo"})
    assert [call.name for call in finding.fix.add_calls] == ["get_weather"]
    assert finding.fix.apply_to_text(reply) == "Checking Tokyo."


def test_a_v3_name_with_nothing_after_it_is_named_in_the_warning(write_session):
    reply = f"Checking Tokyo.{BEGIN}{CALL}function{SEP}get_weather"
    finding = one_finding(write_session, reply, family="deepseek")
    assert (finding.severity, finding.tool, finding.fix.add_calls) == (WARNING, "get_weather", ())


def test_look_alikes_stay_as_they_are(write_session):
    prose = (
        "DeepSeek V3 writes `function<｜tool▁sep｜>get_weather` before the arguments; a V3 call is typed `function`."
    )
    path = write_session(
        [{"role": "user", "content": "How does DeepSeek call tools?"}, {"role": "assistant", "content": prose}], TOOLS
    )
    assert markup_findings(path) == []
    tool_named_function = f'{BEGIN}{CALL}function{SEP}{{"x": 1}}{CALL_END}{END}'  # V3.1: a tool named `function`
    finding = one_finding(write_session, f"Calling it.\n{tool_named_function}", family="deepseek")
    assert [(call.name, call.arguments) for call in finding.fix.add_calls] == [("function", {"x": 1})]


def test_hostile_repeats_of_a_v3_call_head_are_read_in_linear_time(write_session):
    reply = "Checking.\n" + f"{CALL}function{SEP}get_weather " * 3_000 + f"function{SEP}get_weather\n" * 3_000
    path = write_session([{"role": "assistant", "content": reply}], TOOLS)
    started = cpu_time()
    findings = markup_findings(path)
    assert cpu_time() - started < 5
    assert findings and all(finding.tool in ("get_weather", None) for finding in findings)
