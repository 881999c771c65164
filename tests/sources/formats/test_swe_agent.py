"""SWE-agent trajectories: `sessions/swe-agent.traj`, built the way SWE-agent's `DefaultAgent`
saves one (SWE-agent needs Docker to run; `sessions/generate/swe_agent.py` names the code it
follows), read from its history; the format is read-only."""

from __future__ import annotations

import pytest

from inspector.model import ASSISTANT, SYSTEM, TOOL, USER
from inspector.sources import FORMATS, load_sessions
from inspector.sources.files.document import read_document
from tests.helpers.frameworks import fix_all, format_read, other_samples, specific_claims
from tests.helpers.samples import TOOL_SAMPLES
from tests.helpers.scanning import finding_triples

TRAJECTORY = TOOL_SAMPLES / "swe-agent.traj"
# (a) and (b) sit in replies that also make a good call: a reply whose call does not parse is asked
# again and kept in neither list.
PLANTED = [(2, "result-prefix", None), (4, "tool-markup", "bash")]


def test_the_trajectory_is_swe_agent_and_no_other_specific_format_claims_it():
    assert specific_claims(TRAJECTORY) == ["swe-agent"]
    assert format_read(TRAJECTORY) == "swe-agent"


@pytest.mark.parametrize("path", other_samples("swe-agent"), ids=lambda p: p.name)
def test_swe_agent_claims_no_other_sample(path):
    assert not FORMATS["swe-agent"].claims(read_document(path))


def test_the_history_is_read_and_each_observation_answers_its_call():
    (session,) = load_sessions(TRAJECTORY)
    assert session.problems == ()
    assert [turn.role for turn in session.turns] == [SYSTEM, USER] + [ASSISTANT, TOOL] * 3
    (call,) = session.turns[2].tool_calls
    assert (call.id, call.name, call.arguments) == ("call_mock_good", "bash", {"command": "cat notes.txt"})
    (result,) = session.turns[3].tool_results
    assert result.call_id == "call_mock_good" and not result.is_error
    assert result.content == "OBSERVATION:\nMeeting moved to Thursday.\nBring the draft.\n"
    assert session.turns[6].tool_calls[0].name == "submit"


def test_the_planted_problems_are_found_once_and_the_good_calls_are_clean():
    assert finding_triples(TRAJECTORY) == PLANTED


def test_a_history_entry_of_a_role_swe_agent_does_not_write_is_counted(tmp_path):
    text = TRAJECTORY.read_text(encoding="utf-8").replace('"role": "system"', '"role": "narrator"')
    path = tmp_path / "odd.traj"
    path.write_text(text, encoding="utf-8")
    (session,) = load_sessions(path)
    assert session.problems == ("1 history entry of an unknown role not read as turns",)


def test_fix_says_in_one_line_that_the_format_cannot_be_written(tmp_path, capsys):
    code, error = fix_all(TRAJECTORY, tmp_path / "fixed.traj", capsys)
    assert code == 2 and "swe-agent format cannot be written" in error and len(error.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []
