"""Amp threads: `sessions/amp.thread.json`, built from the thread JSON Amp stores (see
`sessions/generate/amp.py`), read into turns; the format is read-only."""

from __future__ import annotations

import json

import pytest

from inspector.model import ASSISTANT, TOOL, USER
from inspector.sources import FORMATS, load_sessions
from inspector.sources.files.document import read_document
from tests.helpers.frameworks import fix_all, format_read, other_samples, specific_claims
from tests.helpers.samples import TOOL_SAMPLES
from tests.helpers.scanning import finding_triples

THREAD = TOOL_SAMPLES / "amp.thread.json"
PLANTED = [(1, "result-prefix", None), (3, "tool-markup", "Read"), (8, "tool-error", "Bash")]


def test_the_thread_is_amp_and_no_other_specific_format_claims_it():
    assert specific_claims(THREAD) == ["amp"]
    assert format_read(THREAD) == "amp"


@pytest.mark.parametrize("path", other_samples("amp"), ids=lambda p: p.name)
def test_amp_claims_no_other_sample(path):
    assert not FORMATS["amp"].claims(read_document(path))


def test_each_message_is_a_turn_and_results_are_tool_turns():
    (session,) = load_sessions(THREAD)
    assert session.session_id == "T-5f0c2a9e-3b1d-4c7e-9a2f-6d8e1b4c7a30" and session.problems == ()
    assert [turn.role for turn in session.turns] == [USER, ASSISTANT] * 3 + [TOOL, ASSISTANT] * 2
    (good,) = session.turns[5].tool_calls
    assert (good.id, good.name, good.arguments) == ("toolu_amp_good", "Read", {"path": "/tmp/amp-work/notes.txt"})
    (answer,) = session.turns[6].tool_results
    assert (answer.call_id, answer.name, answer.is_error) == ("toolu_amp_good", "Read", False)
    assert answer.content == {"content": "Meeting moved to Thursday.\nBring the draft.\n"}
    (failed,) = session.turns[8].tool_results
    assert failed.is_error and failed.content == {"message": "cat: draft.txt: No such file or directory"}
    assert {turn.model for turn in session.turns if turn.role == ASSISTANT} == {"claude-sonnet-4-5-20250929"}


def test_the_planted_problems_are_found_once_and_the_good_call_is_clean():
    assert finding_triples(THREAD) == PLANTED


def test_a_message_of_an_unknown_role_and_a_block_of_an_unknown_type_are_counted(tmp_path):
    thread = json.loads(THREAD.read_text(encoding="utf-8"))
    thread["messages"][0]["role"] = "narrator"
    thread["messages"][1]["content"].append({"type": "hologram"})
    thread["messages"].append({"role": "info", "messageId": 10, "content": [{"type": "summary"}]})
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(thread), encoding="utf-8")
    (session,) = load_sessions(path)
    assert session.problems == (
        "1 message of an unknown role not read as turns",
        "1 content block of an unknown type not read",
    )
    assert len(session.turns) == 9  # the info message is Amp's note, not a turn


def test_fix_says_in_one_line_that_the_format_cannot_be_written(tmp_path, capsys):
    code, error = fix_all(THREAD, tmp_path / "fixed.json", capsys)
    assert code == 2 and "amp format cannot be written" in error and len(error.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []
