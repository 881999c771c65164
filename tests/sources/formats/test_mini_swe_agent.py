"""mini-swe-agent trajectories: the `*.traj.json` mini-swe-agent 2.4.6 saved after one task run
against the scripted model (`sessions/mini-swe-agent.traj.json`, see `sessions/generate/README.md`),
read into turns; the format is read-only."""

from __future__ import annotations

import pytest

from inspector.model import ASSISTANT, SYSTEM, TOOL, USER
from inspector.sources import FORMATS, load_sessions
from inspector.sources.files.document import read_document
from tests.helpers.frameworks import fix_all, format_read, other_samples, specific_claims
from tests.helpers.samples import TOOL_SAMPLES
from tests.helpers.scanning import finding_triples

TRAJECTORY = TOOL_SAMPLES / "mini-swe-agent.traj.json"
# (a) and (b) are replies mini dropped for making no call; (c) and (c2) replies whose call did not
# parse: each is read from its format error's `extra.response`, answered by that error.
PLANTED = [
    (2, "result-prefix", None),
    (4, "tool-markup", "bash"),
    (8, "malformed-arguments", "bash"),
    (9, "tool-error", "bash"),
    (10, "malformed-arguments", "bash"),
    (11, "tool-error", "bash"),
]


def test_the_trajectory_is_mini_swe_agent_and_no_other_specific_format_claims_it():
    assert specific_claims(TRAJECTORY) == ["mini-swe-agent"]
    assert format_read(TRAJECTORY) == "mini-swe-agent"


@pytest.mark.parametrize("path", other_samples("mini-swe-agent"), ids=lambda p: p.name)
def test_mini_swe_agent_claims_no_other_sample(path):
    assert not FORMATS["mini-swe-agent"].claims(read_document(path))


def test_each_message_is_a_turn_and_each_dropped_reply_comes_before_its_format_error():
    (session,) = load_sessions(TRAJECTORY)
    assert session.problems == ()
    roles = [turn.role for turn in session.turns]
    assert roles[:6] == [SYSTEM, USER, ASSISTANT, USER, ASSISTANT, USER]
    assert roles[6:] == [ASSISTANT, TOOL] * 5  # the exit message is how the run ended, not a turn
    dropped = session.turns[2]
    assert dropped.text.startswith('{"returncode": 0, "output": "Meeting moved') and dropped.tool_calls == ()
    assert session.turns[3].text.startswith("Tool call error:\n\n<error>\nNo tool calls found")
    (cut,) = session.turns[8].tool_calls
    assert (cut.id, cut.arguments_raw, cut.arguments) == ("call_mock_broken_cut", '{"command": "echo hi"', None)
    (error,) = session.turns[9].tool_results
    assert error.call_id == "call_mock_broken_cut" and error.is_error
    assert "Error parsing tool call arguments" in error.content
    assert {turn.model for turn in session.turns if turn.role == ASSISTANT} == {"openai/mock"}


def test_the_good_calls_are_answered_by_their_observations_and_the_submission_is_no_error():
    (session,) = load_sessions(TRAJECTORY)
    answers = [turn.tool_results[0] for turn in session.turns[6:] if turn.role == TOOL]
    good = [answers[0], answers[3]]
    assert [(r.call_id, r.is_error) for r in good] == [("call_mock_good", False), ("call_mock_good_echo", False)]
    assert '"output": "Meeting moved to Thursday.\\nBring the draft.\\n"' in good[0].content
    submitted = answers[4]
    assert submitted.call_id == "call_mock_submit" and not submitted.is_error


def test_the_planted_problems_are_found_once_and_the_good_calls_are_clean():
    assert finding_triples(TRAJECTORY) == PLANTED


def test_a_message_of_a_role_mini_does_not_write_is_counted(tmp_path):
    text = TRAJECTORY.read_text(encoding="utf-8").replace('"role": "system"', '"role": "narrator"', 1)
    path = tmp_path / "odd.traj.json"
    path.write_text(text, encoding="utf-8")
    (session,) = load_sessions(path)
    assert session.problems == ("1 message of an unknown role not read as turns",)
    assert session.turns[0].role == USER


def test_fix_says_in_one_line_that_the_format_cannot_be_written(tmp_path, capsys):
    code, error = fix_all(TRAJECTORY, tmp_path / "fixed.json", capsys)
    assert code == 2 and "mini-swe-agent format cannot be written" in error and len(error.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []
