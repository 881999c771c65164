"""What a scan keeps of each session for its reports: the turn count, the findings and only the
turns they point at, at any length."""

from __future__ import annotations

import json

from inspector.cli.main import main
from inspector.scan.scanner import scan_file
from inspector.scan.summary import summarise
from tests.helpers.samples import SESSIONS


def _long_chat(path, replies: int):
    """An OpenAI chat of `replies` exchanges, one call answered in the middle, and a reply far past
    the first 16,384 positions that starts with a fake `save_memory` result."""
    messages = [{"role": "system", "content": "You keep notes."}]
    for number in range(replies):
        messages.append({"role": "user", "content": f"Note {number}, please."})
        if number == replies // 2:
            messages.append(
                {
                    "role": "assistant",
                    "content": "",
                    "tool_calls": [
                        {
                            "id": "call_1",
                            "type": "function",
                            "function": {"name": "save_memory", "arguments": json.dumps({"content": f"note {number}"})},
                        }
                    ],
                }
            )
            messages.append({"role": "tool", "tool_call_id": "call_1", "content": '{"success": true}'})
        text = f"Saved note {number}."
        if number == replies - 2:
            text = '{success: true, content: "the last note"}' + text
        messages.append({"role": "assistant", "content": text})
    path.write_text(json.dumps({"model": "gpt-4.1", "messages": messages}))
    return path


def test_a_summary_keeps_the_flagged_turns_and_counts_the_others(tmp_path):
    (result,) = scan_file(_long_chat(tmp_path / "long.openai.json", 9000))
    summary = summarise(result)
    assert summary.turn_count == len(result.session.turns) > 18000
    flagged = {finding.turn for finding in result.findings}
    assert max(flagged) > 16384
    assert set(summary.flagged_turns) == flagged
    assert all(summary.turn_at(position) is result.session.turn_at(position) for position in flagged)
    assert summary.turn_at(1) is None  # an unflagged turn is not kept
    assert sum(summary.rates.calls.values()) == 2  # the structured call and the one the fix recovers


def test_the_report_shows_the_text_of_a_flagged_turn_far_into_a_long_chat(tmp_path, capsys):
    path = _long_chat(tmp_path / "long.openai.json", 9000)
    assert main(["scan", "--json", str(path)]) == 1
    (session,) = json.loads(capsys.readouterr().out)["sessions"]
    assert session["turns"] > 18000
    (finding,) = [f for f in session["findings"] if f["kind"] == "result-prefix"]
    assert finding["turn"] > 16384 and finding["fix"]["content"] == "Saved note 8998."
    assert main(["scan", str(path)]) == 1
    assert 'found:  {success: true, content: "the last note"}' in capsys.readouterr().out


def test_the_text_after_a_fix_is_shown_only_when_the_fix_changes_it(capsys):
    assert main(["scan", str(SESSIONS / "analyst-agent.openai.json")]) == 1
    blocks = capsys.readouterr().out.split("\n  turn ")
    (malformed,) = [block for block in blocks if "malformed-arguments  query_db" in block]
    (markup,) = [block for block in blocks if "tool-markup  create_chart" in block]
    assert "fix:    replace the query_db call's arguments" in malformed and "text:" not in malformed
    assert "text:   " in markup and "fix:    strip the markup" in markup
