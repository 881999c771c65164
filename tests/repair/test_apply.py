"""Applying fixes: combined edits on one turn, inserted calls and results, untouched turns kept."""

import json

from inspector.model import ASSISTANT, NOT_EXECUTED, TOOL, Finding, Fix, Session, ToolCall, ToolResult, Turn
from inspector.repair.apply import apply_fixes
from inspector.sources import load_sessions, render_sessions


def _session(tmp_path, messages):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"messages": messages}))
    return load_sessions(path)[0]


def _finding(turn, fix):
    return Finding(turn, None, ASSISTANT, "result-prefix", "error", "m", fix=fix)


def test_spans_of_several_findings_on_one_turn_are_cut_together(tmp_path):
    session = _session(tmp_path, [{"role": "assistant", "content": "{a: 1} {b: 2} Hello"}])
    first = _finding(0, Fix(remove=((0, 7),)))
    second = _finding(0, Fix(remove=((7, 14),)))
    repaired, applied = apply_fixes(session, [first, second])
    assert repaired.turns[0].text == "Hello" and repaired.turns[0].edited
    assert [(a.before, a.after) for a in applied] == [("{a: 1} {b: 2} Hello", "Hello")] * 2


def test_a_persons_edited_text_wins_over_the_proposed_removal(tmp_path):
    session = _session(tmp_path, [{"role": "assistant", "content": "{a: 1} Hello"}])
    edited = _finding(0, Fix(remove=((0, 7),), text="Hello there"))
    repaired, _ = apply_fixes(session, [edited])
    assert repaired.turns[0].text == "Hello there"


def test_recovered_calls_go_before_the_turn_and_added_results_after(tmp_path):
    session = _session(
        tmp_path,
        [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": "{a: 1} Hi"},
            {"role": "user", "content": "bye"},
        ],
    )
    call = ToolCall("c1", "note", {"a": 1}, {"a": 1}, "recovered")
    answer = ToolResult("x9", "lookup", "no result was recorded", is_error=True)
    repaired, _ = apply_fixes(
        session, [_finding(1, Fix(remove=((0, 7),), add_calls=(call,))), _finding(1, Fix(add_results=(answer,)))]
    )
    roles = [(t.role, t.text, t.raw is None) for t in repaired.turns]
    assert roles == [
        ("user", "hi", False),
        (ASSISTANT, "", True),
        (TOOL, "", True),
        (ASSISTANT, "Hi", False),
        (TOOL, "", True),
        ("user", "bye", False),
    ]
    assert repaired.turns[2].tool_results == (ToolResult("c1", "note", NOT_EXECUTED),)
    assert repaired.turns[4].tool_results == (answer,)
    written = json.loads(render_sessions([repaired]))["messages"]
    assert [m["role"] for m in written] == ["user", "assistant", "tool", "assistant", "tool", "user"]
    assert written[4] == {"role": "tool", "tool_call_id": "x9", "content": "no result was recorded"}


def test_replaced_arguments_change_only_that_call(tmp_path):
    calls = [
        {"id": f"c{i}", "type": "function", "function": {"name": "f", "arguments": '{"n": 1}}}'}} for i in range(2)
    ]
    session = _session(tmp_path, [{"role": "assistant", "content": None, "tool_calls": calls}])
    repaired, _ = apply_fixes(session, [_finding(0, Fix(replace_arguments=((1, {"n": 1}),)))])
    written = json.loads(render_sessions([repaired]))["messages"][0]["tool_calls"]
    assert [c["function"]["arguments"] for c in written] == ['{"n": 1}}}', '{"n": 1}']


def test_findings_without_a_fix_change_nothing(tmp_path):
    session = _session(tmp_path, [{"role": "assistant", "content": "{a: 1} Hi"}])
    repaired, applied = apply_fixes(session, [_finding(0, None)])
    assert repaired is session and applied == []


def test_turn_at_finds_the_sessions_own_turn_among_inserted_ones(tmp_path):
    session = _session(tmp_path, [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "{a: 1} Hi"}])
    call = ToolCall("c1", "note", {"a": 1}, {"a": 1}, "recovered")
    repaired, _ = apply_fixes(session, [_finding(1, Fix(remove=((0, 7),), add_calls=(call,)))])
    assert [t.position for t in repaired.turns] == [0, 1, 1, 1]
    assert repaired.turn_at(1).text == "Hi" and repaired.turn_at(1).raw is not None
    assert repaired.turn_at(0).text == "hi"
    assert repaired.turn_at(2) is None and session.turn_at(-1) is None


def test_turn_at_is_the_first_of_a_position_whatever_the_index():
    # turn_at first tries the turn at index `position`; it must not take it when an earlier turn
    # has the same position (one record read as two turns), nor when positions have gaps
    def turn(position, text):
        return Turn(position, ASSISTANT, text, raw={"n": text})

    split = Session("openai", None, (turn(0, "a"), turn(0, "b"), turn(1, "c")))
    assert [split.turn_at(p).text for p in (0, 1)] == ["a", "c"]
    shifted = Session("openai", None, (turn(1, "a"), turn(1, "b"), turn(3, "c")))
    assert shifted.turn_at(1).text == "a" and shifted.turn_at(3).text == "c"
    assert shifted.turn_at(0) is None and shifted.turn_at(2) is None
    plain = Session("openai", None, (turn(0, "a"), turn(1, "b"), turn(2, "c")))
    assert [plain.turn_at(p).text for p in range(3)] == ["a", "b", "c"] and plain.turn_at(3) is None
