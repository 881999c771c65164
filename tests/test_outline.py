"""The outline a long scan keeps: the same turns, by place and role, at any length."""

from __future__ import annotations

import json

from inspector.json_report import build_report
from inspector.scan import outline, scan_file
from inspector.text_report import render_report


def _long_chat(path, replies: int):
    """An OpenAI chat of `replies` exchanges, one call answered in the middle, and a reply far past
    the first 16,384 positions that starts with a fake `save_memory` result."""
    messages = [{"role": "system", "content": "You keep notes."}]
    for number in range(replies):
        messages.append({"role": "user", "content": f"Note {number}, please."})
        if number == replies // 2:
            messages.append({"role": "assistant", "content": "", "tool_calls": [
                {"id": "call_1", "type": "function",
                 "function": {"name": "save_memory", "arguments": json.dumps({"content": f"note {number}"})}}]})
            messages.append({"role": "tool", "tool_call_id": "call_1", "content": '{"success": true}'})
        text = f"Saved note {number}."
        if number == replies - 2:
            text = '{success: true, content: "the last note"}' + text
        messages.append({"role": "assistant", "content": text})
    path.write_text(json.dumps({"model": "gpt-4.1", "messages": messages}))
    return path


def test_an_outline_keeps_every_turn_s_place_and_role_past_the_shared_skeletons(tmp_path):
    results = scan_file(_long_chat(tmp_path / "long.openai.json", 9000))
    outlines = [outline(result) for result in results]
    (result,), (outlined,) = results, outlines
    assert len(result.session.turns) > 18000 and result.findings
    assert [(t.position, t.role) for t in outlined.session.turns] == [(t.position, t.role) for t in result.session.turns]
    flagged = {finding.turn for finding in result.findings}
    assert max(flagged) > 16384
    for turn, kept in zip(result.session.turns, outlined.session.turns):
        if turn.position in flagged:
            assert kept is turn
        else:
            assert kept.text == "" and [c.name for c in kept.tool_calls] == [c.name for c in turn.tool_calls]
    assert json.dumps(build_report(outlines)) == json.dumps(build_report(results))
    assert render_report(outlines) == render_report(results)


def test_two_outlines_share_the_skeletons_of_plain_turns(tmp_path):
    first, second = (outline(result) for result in scan_file(_long_chat(tmp_path / "chat.openai.json", 40))
                     for _ in range(2))
    assert all(a is b for a, b in zip(first.session.turns, second.session.turns) if not a.tool_calls)
