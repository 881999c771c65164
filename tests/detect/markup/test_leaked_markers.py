"""Call tokens or call-shaped JSON left in a reply with nothing the family readers can parse:
something leaked, so `tool-markup` warns and strips it (or recovers the call when a name and its
arguments are there after all) instead of staying silent. Prose that mentions a token, prose that
lists JSON and examples in code stay clean."""

import pytest

from inspector.model import ERROR, WARNING
from tests.helpers.markup import TOOLS, fixed_calls_and_texts, markup_findings, one_finding
from tests.helpers.timing import cpu_time

BEGIN, CALL, SEP = "<｜tool▁calls▁begin｜>", "<｜tool▁call▁begin｜>", "<｜tool▁sep｜>"
CALL_END, END = "<｜tool▁call▁end｜>", "<｜tool▁calls▁end｜>"
SECTION, KIMI_CALL, ARGS = "<|tool_calls_section_begin|>", "<|tool_call_begin|>", "<|tool_call_argument_begin|>"
KIMI_CALL_END, SECTION_END = "<|tool_call_end|>", "<|tool_calls_section_end|>"


@pytest.mark.parametrize(
    "prose, leak, tool",
    [
        pytest.param("Let me look that up.", f"{BEGIN}get_weather", "get_weather", id="deepseek-a-bare-name"),
        pytest.param("Sure, one moment while I check.\n", BEGIN, None, id="deepseek-stops-at-the-section-start"),
        pytest.param(
            "Let me look that up.",
            f"{BEGIN}{CALL}get_weather{SEP}city=Paris{CALL_END}{END}",
            "get_weather",
            id="deepseek-arguments-not-json",
        ),
        pytest.param("The forecast is ready.", f"{CALL_END}{END}", None, id="deepseek-stray-closing-tokens"),
        pytest.param(
            "One moment.\n",
            f'{SECTION}{KIMI_CALL}0{ARGS}{{"city": "Beijing"}}{KIMI_CALL_END}{SECTION_END}',
            None,
            id="kimi-a-bare-index-names-no-tool",
        ),
        pytest.param(
            "Checking Paris.\n",
            f"{SECTION}functions.get_weather:0{SECTION_END}",
            "get_weather",
            id="kimi-a-call-id-and-nothing-else",
        ),
        pytest.param("Some text ", '[{"name": "get_weather"}]', "get_weather", id="json-array-without-arguments"),
        pytest.param(
            "I will check the weather.\n",
            '[{"name": "get_weather", "arguments": "not a dict"}]',
            "get_weather",
            id="json-array-arguments-not-an-object",
        ),
    ],
)
def test_leaked_markers_with_nothing_parseable_are_stripped_with_a_warning(write_session, prose, leak, tool):
    reply = prose + leak
    finding = one_finding(write_session, reply)
    assert (finding.severity, finding.tool, finding.fix.add_calls) == (WARNING, tool, ())
    assert "strip the markup only" in finding.fix.summary
    assert finding.fix.apply_to_text(reply) == prose.rstrip()


@pytest.mark.parametrize(
    "prose, leak, arguments",
    [
        pytest.param(
            "Checking Paris.",
            f'{BEGIN}get_weather{SEP}{{"city": "Paris"}}{END}',
            {"city": "Paris"},
            id="deepseek-call-markers-missing",
        ),
        pytest.param(
            "Checking Beijing.\n",
            f'{SECTION}functions.get_weather:0 {{"city": "Beijing"}}{SECTION_END}',
            {"city": "Beijing"},
            id="kimi-inner-tokens-missing",
        ),
        pytest.param(
            "Checking Beijing.\n",
            f'functions.get_weather:0{ARGS}{{"city": "Beijing"}}{KIMI_CALL_END}',
            {"city": "Beijing"},
            id="kimi-call-text-without-its-section-and-start-tokens",
        ),
        pytest.param(
            "Checking Tokyo.\n",
            f'get_weather{SEP}{{"city": "Tokyo", "days": 2}}{CALL_END}{END}',
            {"city": "Tokyo", "days": 2},
            id="deepseek-start-tokens-gone",
        ),
        pytest.param(
            "I'll check that for you: ",
            '[{"name": "get_weather", "arguments": {"city": "Rome"}}]',
            {"city": "Rome"},
            id="json-array-in-prose",
        ),
    ],
)
def test_a_call_whose_markers_are_partly_missing_is_recovered(write_session, prose, leak, arguments):
    reply = prose + leak
    finding = one_finding(write_session, reply)
    assert (finding.severity, finding.tool, finding.arguments) == (ERROR, "get_weather", arguments)
    assert finding.fix.apply_to_text(reply) == prose.rstrip()


def test_the_fix_rescans_clean(write_session, tmp_path):
    path = write_session(
        [
            {"role": "user", "content": "Weather in Beijing, then Paris?"},
            {
                "role": "assistant",
                "content": f'Checking Beijing.\nfunctions.get_weather:0{ARGS}{{"city": "Beijing"}}{KIMI_CALL_END}',
            },
            {"role": "user", "content": "And Paris?"},
            {"role": "assistant", "content": f"Let me look that up.{BEGIN}get_weather"},
        ],
        TOOLS,
    )
    calls, texts = fixed_calls_and_texts(path, tmp_path)
    assert calls == [("get_weather", {"city": "Beijing"})]
    assert texts == ["Checking Beijing.", "Let me look that up."]


@pytest.mark.parametrize(
    "reply",
    [
        f"Kimi opens a call section with {SECTION} before its calls and closes it after them.",
        f"Kimi's call ids look like `functions.get_weather:0{ARGS}` in the raw output.",
        'Here are the results: [{"name": "Alice", "age": 30}, {"name": "Bob", "age": 25}]',
        'The tools I have are [{"name": "get_weather", "description": "Forecast for a city"}].',
        'Its definition: [{"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {}}}}]',
        'Use `[{"name": "get_weather"}]` as the payload.',
        '```json\n[{"name": "get_weather"}]\n```\nThat is the request body the docs show.',
        'A list of names: [{"name": "get_forecast", "arguments": {"city": "Paris"}}] is not one of my tools.',
        'Odd data: [{"name": ["get_weather"]}] and [{"name": {"first": "Ada"}, "arguments": {}}].',
    ],
)
def test_look_alikes_stay_clean(write_session, reply):
    path = write_session([{"role": "user", "content": "hello"}, {"role": "assistant", "content": reply}], TOOLS)
    assert markup_findings(path) == []


HOSTILE = {
    "section starts": BEGIN * 30_000,
    "Kimi section starts then prose": (SECTION + " x ") * 10_000,
    "Kimi argument tokens after long names": ("a" * 199 + ARGS) * 400,
    "DeepSeek separators after long names": ("b" * 199 + SEP) * 400,
    "closing tokens": END * 30_000,
    "call arrays never closed": '[{"name": "get_weather", "arguments": {"city": "' * 5_000,
    "call arrays of unknown tools": '[{"name": "nope"}] ' * 10_000,
}


@pytest.mark.parametrize("reply", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_leftovers_are_read_in_linear_time(write_session, reply):
    path = write_session([{"role": "assistant", "content": "Checking.\n" + reply}], TOOLS)
    started = cpu_time()
    findings = markup_findings(path)
    assert cpu_time() - started < 3
    assert len(findings) <= 20
