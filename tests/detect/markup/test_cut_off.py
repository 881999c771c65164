"""A leaked call that the end of the reply cuts off inside its arguments (a stream stopped at max
tokens) is recovered when closing its open string and brackets completes it: marked a guess and
a warning, as `malformed-arguments` does for structured calls. When more than closing is needed
(a key cut short, no arguments yet, the tool's name cut), only the markup is stripped."""

import pytest

from inspector.model import WARNING
from tests.helpers.markup import TOOLS, fixed_calls_and_texts, markup_findings, one_finding
from tests.helpers.timing import cpu_time

DEEPSEEK = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>"
SEP = "<｜tool▁sep｜>"
KIMI = "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>"


@pytest.mark.parametrize(
    "prose, leak, tool, arguments, closed",
    [
        pytest.param(
            "Let me check the forecast for you.\n\n",
            '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "days": 3',
            "get_weather",
            {"city": "Paris", "days": 3},
            "2 objects",
            id="hermes-after-a-value",
        ),
        pytest.param(
            "I'll run that snippet now.\n",
            '<tool_call>\n{"name": "run_code", "arguments": {"code": "for i in range(3):\\n    print(i',
            "run_code",
            {"code": "for i in range(3):\n    print(i"},
            "an unfinished string and 2 objects",
            id="hermes-inside-a-string",
        ),
        pytest.param(
            "Searching both folders.\n",
            '<tool_call>{"name": "search_files", "arguments": {"pattern": "*.py", "paths": ["src", "tests",',
            "search_files",
            {"pattern": "*.py", "paths": ["src", "tests"]},
            "1 list and 2 objects",
            id="hermes-after-a-comma-in-a-list",
        ),
        pytest.param(
            "Sure, checking Tokyo.",
            f'{DEEPSEEK}get_weather{SEP}{{"city": "Tokyo", "days": 2',
            "get_weather",
            {"city": "Tokyo", "days": 2},
            "1 object",
            id="deepseek-v3.1",
        ),
        pytest.param(
            "One moment.\n", f'{KIMI}{{"city": "Beijing"', "get_weather", {"city": "Beijing"}, "1 object", id="kimi-k2"
        ),
        pytest.param(
            "Looking it up.\n",
            '<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Oslo", "da',
            None,
            None,
            None,
            id="harmony-cut-in-a-key-is-not-completed",
        ),
        pytest.param(
            "Looking it up.\n",
            '<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Oslo"',
            "get_weather",
            {"city": "Oslo"},
            "1 object",
            id="harmony",
        ),
        pytest.param(
            "Checking.\n",
            '[TOOL_CALLS]get_weather{"city": "Lisbon", "days": 4',
            "get_weather",
            {"city": "Lisbon", "days": 4},
            "1 object",
            id="mistral-v11",
        ),
        pytest.param(
            "Checking.\n",
            '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Rome"',
            "get_weather",
            {"city": "Rome"},
            "1 list and 2 objects",
            id="mistral-array",
        ),
    ],
)
def test_a_call_cut_off_in_its_arguments_is_completed_as_a_guess(write_session, prose, leak, tool, arguments, closed):
    reply = prose + leak
    finding = one_finding(write_session, reply)
    assert finding.severity == WARNING
    if tool is None:  # a key cut short: closing alone cannot complete it
        assert finding.fix.add_calls == () and "GUESSED" not in finding.message
        return
    assert (finding.tool, finding.arguments, finding.executed) == (tool, arguments, False)
    assert f"completed by closing {closed}" in finding.message
    assert "GUESSED" in finding.message
    (call,) = finding.fix.add_calls
    assert (call.name, call.arguments, call.origin) == (tool, arguments, "recovered")
    assert finding.fix.apply_to_text(reply) == prose.rstrip()


def test_the_fix_recovers_the_completed_call_and_rescans_clean(write_session, tmp_path):
    path = write_session(
        [
            {"role": "user", "content": "Forecast for Paris, three days?"},
            {
                "role": "assistant",
                "content": 'Let me check.\n<tool_call>\n{"name": "get_weather", "arguments": '
                '{"city": "Paris", "days": 3',
            },
        ],
        TOOLS,
    )
    calls, texts = fixed_calls_and_texts(path, tmp_path)
    assert calls == [("get_weather", {"city": "Paris", "days": 3})]
    assert texts == ["Let me check."]


@pytest.mark.parametrize(
    "reply",
    [
        'Checking.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "da',  # a key cut short
        'Checking.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "days":',  # no value yet
        'Checking.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "days": tr',  # a word cut short
        'Checking.\n<tool_call>\n{"name": "get_weather"',  # cut before the arguments
        'Checking.\n<tool_call>\n{"name": "get_weather", "arguments": ',  # no arguments yet
        'Checking.\n<tool_call>\n{"name": "get_wea',  # the name cut short
        'Checking.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}\nLet me know if that works.',
    ],
)
def test_what_closing_alone_cannot_complete_is_only_stripped(write_session, reply):
    finding = one_finding(write_session, reply)
    assert finding.severity == WARNING and finding.fix.add_calls == ()
    assert "GUESSED" not in finding.message
    assert finding.fix.apply_to_text(reply) == "Checking."


def test_a_broken_block_followed_by_another_is_not_completed(write_session):
    reply = (
        'Trying twice.\n<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"\n'
        '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>'
    )
    path = write_session([{"role": "user", "content": "Weather?"}, {"role": "assistant", "content": reply}], TOOLS)
    first, second = markup_findings(path)
    assert (first.severity, first.fix.add_calls) == (WARNING, ())  # not at the end of the reply: broken, not cut off
    assert [call.arguments for call in second.fix.add_calls] == [{"city": "Paris"}]


HOSTILE = {
    "100k open brackets": '<tool_call>{"name": "run_code", "arguments": {"code": ' + "[" * 100_000,
    "escaped quotes": '<tool_call>{"name": "run_code", "arguments": {"code": "' + '\\"' * 50_000,
    "3000 nested calls": "<tool_call>" + '{"name": "run_code", "arguments": {"a": {"b": ' * 3_000,
    "Mistral calls cut off": "[TOOL_CALLS]" + 'run_code{"code": "' * 10_000,
    "DeepSeek calls cut off": DEEPSEEK + f'run_code{SEP}{{"code": "x' * 5_000,
    "Harmony headers cut off": '<|channel|>commentary to=functions.run_code <|message|>{"code": [' * 5_000,
}


@pytest.mark.parametrize("leak", HOSTILE.values(), ids=HOSTILE.keys())
def test_completing_hostile_text_is_linear(write_session, leak):
    path = write_session([{"role": "assistant", "content": "Running.\n" + leak}], TOOLS)
    started = cpu_time()
    findings = markup_findings(path)
    assert cpu_time() - started < 3
    assert findings[0].tool == "run_code" and findings[0].fix is not None
