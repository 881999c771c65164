"""DSPy LM histories: `lm.history` of a `dspy.ReAct` run on `dspy.utils.DummyLM` by DSPy 3.4
(`sessions/dspy.history.json`, dumped with `json.dumps(default=str)`, see
`sessions/generate/README.md`): one session per model call, each reply field a turn."""

from __future__ import annotations

import pytest

from inspector.model import ASSISTANT, SYSTEM, USER
from inspector.scan.scanner import scan_file
from inspector.sources import FORMATS, load_sessions
from inspector.sources.files.document import read_document
from inspector.sources.formats.dspy import fields
from tests.helpers.frameworks import fix_all, format_read, other_samples, specific_claims
from tests.helpers.samples import TOOL_SAMPLES
from tests.helpers.scanning import finding_triples

HISTORY = TOOL_SAMPLES / "dspy.history.json"
# The answer field of entry 2 opens with (a), that of entry 4 holds (b); the ReAct tool choice
# (entry 5) is text fields, not a call, and nothing is reported for it.
PLANTED = [(3, "result-prefix", None), (3, "tool-markup", "read_file")]


def test_the_history_is_dspy_and_no_other_specific_format_claims_it():
    assert specific_claims(HISTORY) == ["dspy"]
    assert format_read(HISTORY) == "dspy"


@pytest.mark.parametrize("path", other_samples("dspy"), ids=lambda p: p.name)
def test_dspy_claims_no_other_sample(path):
    assert not FORMATS["dspy"].claims(read_document(path))


def test_each_call_is_a_session_and_each_reply_field_a_turn():
    sessions = load_sessions(HISTORY)
    assert len(sessions) == 7 and all(s.problems == () for s in sessions)
    second = sessions[1]
    assert [t.role for t in second.turns] == [SYSTEM, USER, ASSISTANT, ASSISTANT]
    assert [(t.id, t.text[:10]) for t in second.turns[2:]] == [("reasoning", "Answering."), ("answer", "{success: ")]


def test_fields_split_on_header_lines_only():
    assert fields("[[ ## a ## ]]\nx [[ ## b ## ]] y\n\n[[ ## completed ## ]]\n") == [("a", "x [[ ## b ## ]] y")]
    assert fields("plain reply") == [(None, "plain reply")]


def test_the_planted_problems_are_found_once_in_their_calls():
    assert finding_triples(HISTORY) == PLANTED
    by_session = {r.session.index: [f.kind for f in r.findings] for r in scan_file(HISTORY)}
    assert by_session == {0: [], 1: ["result-prefix"], 2: [], 3: ["tool-markup"], 4: [], 5: [], 6: []}


def test_fix_says_in_one_line_that_the_format_cannot_be_written(tmp_path, capsys):
    code, error = fix_all(HISTORY, tmp_path / "fixed.json", capsys)
    assert code == 2 and "dspy format cannot be written" in error and len(error.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []
