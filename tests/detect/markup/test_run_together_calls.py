"""Call objects run together in one Hermes `<tool_call>` block: `{...}{...}` on one
line, with no comma or line between them, as Qwen and Hermes models write parallel calls when they
skip the closing and opening tags between them. Every call is recovered, not only the first; a block
whose second object is no call, or JSON text that merely mentions a call, is not read as calls."""

from inspector.model import ERROR
from tests.helpers.markup import TOOLS, fixed_calls_and_texts, markup_findings, one_finding
from tests.helpers.timing import cpu_time

PARIS = '{"name": "get_weather", "arguments": {"city": "Paris", "days": 2}}'
ROME = '{"name": "get_weather", "arguments": {"city": "Rome", "days": 2}}'


def test_two_objects_run_together_are_both_recovered(write_session, tmp_path):
    block = f"<tool_call>\n{PARIS}{ROME}\n</tool_call>"
    reply = f"I'll compare both cities for the weekend.\n{block}"
    finding = one_finding(write_session, reply, family="hermes")
    assert finding.severity == ERROR
    assert [(call.name, call.arguments) for call in finding.fix.add_calls] == [
        ("get_weather", {"city": "Paris", "days": 2}),
        ("get_weather", {"city": "Rome", "days": 2}),
    ]
    assert reply[slice(*finding.span)] == "\n" + block  # and the line break before it, as it ends the reply
    assert finding.fix.apply_to_text(reply) == "I'll compare both cities for the weekend."
    assert len({call.id for call in finding.fix.add_calls}) == 2
    path = write_session(
        [{"role": "user", "content": "Paris or Rome this weekend?"}, {"role": "assistant", "content": reply}],
        TOOLS,
        "weekend.json",
    )
    calls, texts = fixed_calls_and_texts(path, tmp_path)
    assert calls == [("get_weather", {"city": "Paris", "days": 2}), ("get_weather", {"city": "Rome", "days": 2})]
    assert texts == ["I'll compare both cities for the weekend."]


def test_three_objects_with_white_space_between_some_of_them(write_session):
    code = '{"name": "run_code", "arguments": {"code": "print(1)"}}'
    reply = f"Running three things.<tool_call>{PARIS} {ROME}{code}</tool_call>"
    finding = one_finding(write_session, reply, family="hermes")
    assert [call.name for call in finding.fix.add_calls] == ["get_weather", "get_weather", "run_code"]
    assert finding.fix.apply_to_text(reply) == "Running three things."


def test_a_call_run_together_with_an_object_that_is_no_call_recovers_the_call_and_names_the_rest(write_session):
    reply = f'Checking Paris.\n<tool_call>\n{PARIS}{{"status": "queued"}}\n</tool_call>'
    finding = one_finding(write_session, reply, family="hermes")
    assert [(call.name, call.arguments) for call in finding.fix.add_calls] == [
        ("get_weather", {"city": "Paris", "days": 2})
    ]
    assert 'a line that does not parse, {"status": "queued"} (warning: it is not recovered' in finding.message
    assert finding.fix.apply_to_text(reply) == "Checking Paris."  # the whole block goes, not half of it


def test_objects_run_together_in_prose_are_not_calls(write_session):
    reply = f"Hermes writes parallel calls as `<tool_call>{PARIS}{ROME}</tool_call>` when it skips a tag."
    path = write_session(
        [{"role": "user", "content": "How does Hermes call tools?"}, {"role": "assistant", "content": reply}], TOOLS
    )
    assert markup_findings(path) == []


def test_many_objects_run_together_are_read_up_to_the_cap(write_session):
    reply = "Checking.\n<tool_call>" + PARIS * 20_000 + "</tool_call>"
    path = write_session([{"role": "user", "content": "Paris?"}, {"role": "assistant", "content": reply}], TOOLS)
    started = cpu_time()
    (finding,) = markup_findings(path)
    assert cpu_time() - started < 5
    assert len(finding.fix.add_calls) == 20 and "a bound against hostile text" in finding.message
