"""Detector `tool-markup`, MiniMax-M2 with its opening `<minimax:tool_call>` dropped: the model
starts at `<invoke name=..>` and closes the block with `</minimax:tool_call>`. The complete
`<invoke>` elements just before that closing tag are the calls; `<invoke` shown in prose or code,
or not followed by the closing tag, is not one."""

import pytest

from tests.helpers.markup import TOOLS, markup_findings, one_finding

CITY = '<invoke name="get_weather">\n<parameter name="city">{}</parameter>\n</invoke>\n'


def test_calls_before_the_closing_tag_are_recovered(write_session):
    reply = (
        'Let me check both.\n<invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n'
        '<parameter name="days">3</parameter>\n</invoke>\n' + CITY.format("Rome") + "</minimax:tool_call>"
    )
    finding = one_finding(write_session, reply, family="minimax")
    assert [(c.name, c.arguments) for c in finding.fix.add_calls] == [
        ("get_weather", {"city": "Paris", "days": 3}),
        ("get_weather", {"city": "Rome"}),
    ]
    assert finding.fix.apply_to_text(reply) == "Let me check both."


def test_a_headless_block_after_a_whole_one(write_session):
    reply = (
        "<minimax:tool_call>\n"
        + CITY.format("Oslo")
        + "</minimax:tool_call>\nNow Bergen.\n"
        + CITY.format("Bergen")
        + "</minimax:tool_call>\nDone."
    )
    path = write_session([{"role": "user", "content": "Hi"}, {"role": "assistant", "content": reply}], TOOLS)
    findings = markup_findings(path)
    assert [[c.arguments for c in f.fix.add_calls] for f in findings] == [[{"city": "Oslo"}], [{"city": "Bergen"}]]


@pytest.mark.parametrize(
    "reply",
    [
        pytest.param('Anthropic-style calls use `<invoke name="get_weather">` elements.', id="inline-code"),
        pytest.param(CITY.format("Paris") + "is the shape such a call takes.", id="invoke-without-closing-tag"),
        pytest.param("MiniMax closes its calls with </minimax:tool_call> at the end.", id="closing-tag-alone"),
        pytest.param(CITY.format("Paris") + "and then the block ends: </minimax:tool_call>", id="prose-between"),
        pytest.param("```xml\n" + CITY.format("Paris") + "</minimax:tool_call>\n```", id="code-fence"),
    ],
)
def test_look_alikes_stay_clean(write_session, reply):
    path = write_session([{"role": "user", "content": "Hi"}, {"role": "assistant", "content": reply}], TOOLS)
    assert markup_findings(path) == []
