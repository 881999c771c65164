"""Detector `fake-result-block` leaves the look-alikes clean (replies about the markup, a user
quoting it, a real tool message holding it) and reads hostile replies of 100 kB in linear time."""

from __future__ import annotations

import pytest

from inspector.scan.scanner import scan_file
from tests.helpers.fake_result_block import KIND, WEATHER
from tests.helpers.scanning import findings_of
from tests.helpers.timing import cpu_time


@pytest.mark.parametrize(
    "reply",
    [
        'Wrap each answer in `<tool_response>{"temperature": 21}</tool_response>` tags, as Hermes does.',
        'The format looks like this:\n\n```xml\n<tool_response>\n{"temperature": 21}\n</tool_response>\n```\n\nThat is all.',
        "The tool result came back empty, so I can't tell the weather yet.",
        "An Observation: line is what the agent loop writes after each action.",
        "Use <tool_response></tool_response> around the output.",
        "The harness puts the output in a <tool_response> block; mine never saw one.",
    ],
)
def test_look_alikes_in_replies_stay_clean(write_session, reply):
    path = write_session(
        [{"role": "user", "content": "How do tool results look?"}, {"role": "assistant", "content": reply}], [WEATHER]
    )
    assert findings_of(path, KIND) == []


def test_a_user_quoting_markup_and_a_real_tool_message_stay_clean(write_session):
    path = write_session(
        [
            {"role": "user", "content": 'My model printed <tool_response>{"temperature": 21}</tool_response>. Why?'},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": '<tool_response>\n{"temperature": 21}\n</tool_response>'},
            {"role": "assistant", "content": "It printed the result a tool would give; it is 21 °C in Oslo right now."},
        ],
        [WEATHER],
    )
    (result,) = scan_file(path)
    assert result.findings == []


@pytest.mark.parametrize(
    "text, expected",
    [
        ("<tool_response>" * 6_700, 0),
        ("<tool_response>x</tool_response>" * 3_200, 20),
        ("Action: get_weather\nObservation: x\n" * 2_900, 20),
        ("Observation: x\n" * 6_700, 0),
        ("```tool_outputs\n" * 6_300, 0),
        ("`<tool_response>` " * 5_600, 0),
        (("<tool_result " + "a" * 190) * 490, 0),
        ("<|eot_id|> " * 9_000 + "<|start_header_id|>ipython<|end_header_id|>x", 1),
        ("<|im_start|>tool\n" * 5_900, 0),
        ("[TOOL_RESULTS]" * 7_100, 0),
    ],
    ids=[
        "open-tags",
        "closed-tags",
        "react",
        "observations",
        "open-fences",
        "inline-code",
        "attributes",
        "eot-tokens",
        "chatml-headers",
        "tokens",
    ],
)
def test_hostile_replies_of_100_kb_are_read_in_linear_time(write_session, text, expected):
    path = write_session([{"role": "user", "content": "hi"}, {"role": "assistant", "content": text}], [WEATHER])
    started = cpu_time()
    found = findings_of(path, KIND)
    assert cpu_time() - started < 2.0
    assert len(found) == expected
    if expected == 20:
        assert "more than 20 such blocks" in found[-1].message
