"""AG2 chat histories: the `ChatResult.chat_history` AG2 0.14 wrote (`sessions/
ag2.chat_history.json`, see `sessions/generate/README.md`), whose results come in
`tool_responses` lists, read with each result linked to its call and written back unchanged."""

from __future__ import annotations

import json

import pytest

from inspector.model import ASSISTANT, TOOL, USER
from inspector.scan.scanner import scan_file
from inspector.sources import FORMATS, load_sessions
from inspector.sources.files.document import read_document
from tests.helpers.frameworks import fix_all, format_read, other_samples, rendered_unchanged, specific_claims
from tests.helpers.samples import TOOL_SAMPLES
from tests.helpers.scanning import finding_triples

HISTORY = TOOL_SAMPLES / "ag2.chat_history.json"
PLANTED = [(1, "result-prefix", None), (3, "tool-markup", "read_file"), (5, "malformed-arguments", "read_file")]


def test_the_history_is_ag2_and_no_other_specific_format_claims_it():
    assert specific_claims(HISTORY) == ["ag2"]
    assert format_read(HISTORY) == "ag2"


@pytest.mark.parametrize("path", other_samples("ag2"), ids=lambda p: p.name)
def test_ag2_claims_no_other_sample(path):
    assert not FORMATS["ag2"].claims(read_document(path))


def test_a_plain_openai_list_without_tool_responses_stays_openai(tmp_path):
    path = tmp_path / "plain.json"
    path.write_text(json.dumps([{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]))
    assert format_read(path) == "openai"


def test_each_tool_response_is_a_result_linked_to_its_call():
    (session,) = load_sessions(HISTORY)
    results = {r.call_id: r for turn in session.turns if turn.role == TOOL for r in turn.tool_results}
    assert set(results) == {"call_mock_broken_cut", "call_mock_good"}
    assert results["call_mock_good"].name == "read_file"
    assert results["call_mock_good"].content == "Meeting moved to Thursday.\nBring the draft.\n"


def test_the_initiators_view_is_read_with_the_model_as_assistant():
    (session,) = load_sessions(HISTORY)
    assert [turn.role for turn in session.turns[:4]] == [USER, ASSISTANT, USER, ASSISTANT]
    assert session.turns[1].raw["role"] == "user" and session.turns[1].raw["name"] == "assistant"


def test_the_false_orphan_calls_are_gone_and_the_planted_problems_found_once():
    as_openai = [
        (f.turn, f.kind, f.tool, f.message)
        for r in scan_file(HISTORY, "openai")
        for f in r.findings
        if f.kind == "orphan-call"
    ]
    assert as_openai == [  # what reading the history as OpenAI reported before this format existed
        (
            5,
            "orphan-call",
            "read_file",
            "The read_file call 'call_mock_broken_cut' was never answered: no result was "
            "recorded before the next assistant reply.",
        ),
        (
            7,
            "orphan-call",
            "read_file",
            "The read_file call 'call_mock_good' was never answered: no result was recorded before the session ends.",
        ),
    ]
    assert finding_triples(HISTORY) == PLANTED


def test_round_trip_unchanged_is_byte_identical():
    assert rendered_unchanged(HISTORY) == HISTORY.read_text(encoding="utf-8")


def test_fix_output_rereads_as_ag2_and_rescans_clean(tmp_path, capsys):
    out = tmp_path / "fixed.json"
    assert fix_all(HISTORY, out, capsys)[0] == 0
    assert format_read(out) == "ag2"
    assert finding_triples(out) == []
    fixed = json.loads(out.read_text())
    recovered = [m for m in fixed if m.get("tool_calls") and m["tool_calls"][0]["id"].startswith("call_inspector")]
    assert len(recovered) == 1 and recovered[0]["role"] == "assistant"
    answer = fixed[fixed.index(recovered[0]) + 1]
    assert (
        answer["role"] == "tool" and answer["tool_responses"][0]["tool_call_id"] == recovered[0]["tool_calls"][0]["id"]
    )
    original = json.loads(HISTORY.read_text())
    assert fixed[-4:] == original[-4:]  # the good call, its result and the final reply are untouched
