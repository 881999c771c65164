"""Cline CLI sessions: the `<id>.messages.json` Cline 3.0.65 wrote against the scripted model
(`sessions/cline.messages.json`, see `sessions/generate/README.md`), read as Cline's own format
rather than as a bare Anthropic request, its results' `{query, result, success}` lists read as
text, written back unchanged, and repaired the way Cline loads it back
(`sessions/clean.cline.resumed.messages.json`: the repaired file, resumed by the real CLI)."""

from __future__ import annotations

import json

import pytest

from inspector.cli.main import main
from inspector.model import ASSISTANT, TOOL
from inspector.sources import FORMATS, load_sessions
from inspector.sources.files.document import read_document
from tests.helpers.frameworks import fix_all, format_read, other_samples, rendered_unchanged, specific_claims
from tests.helpers.samples import TOOL_SAMPLES
from tests.helpers.scanning import finding_triples

SESSION = TOOL_SAMPLES / "cline.messages.json"
RESUMED = TOOL_SAMPLES / "clean.cline.resumed.messages.json"
PLANTED = [(1, "result-prefix", None), (3, "tool-markup", "read_files")]


@pytest.mark.parametrize("path", [SESSION, RESUMED], ids=lambda p: p.name)
def test_the_session_is_clines_and_no_other_specific_format_claims_it(path, capsys):
    assert specific_claims(path) == ["cline"]
    assert format_read(path) == "cline"
    assert main(["scan", str(path)]) in (0, 1)
    assert "(cline, " in capsys.readouterr().out


@pytest.mark.parametrize("path", other_samples("cline"), ids=lambda p: p.name)
def test_cline_claims_no_other_sample(path):
    assert not FORMATS["cline"].claims(read_document(path))


def test_calls_results_and_models_are_read():
    (session,) = load_sessions(SESSION)
    assert session.problems == () and session.session_id == json.loads(SESSION.read_text())["sessionId"]
    calls = [call for turn in session.turns for call in turn.tool_calls]
    assert [(c.name, c.arguments) for c in calls][1:] == [
        ("read_files", {"files": [{"path": "/tmp/cl-work/notes.txt"}]}),
        ("run_commands", {"commands": ["echo hi"]}),
    ]
    results = [r for turn in session.turns if turn.role == TOOL for r in turn.tool_results]
    assert [(r.call_id, r.name, r.content, r.is_error) for r in results][1:] == [
        ("call_mock_good_read", "read_files", "1 | Meeting moved to Thursday.\n2 | Bring the draft.", False),
        ("call_mock_good_echo", "run_commands", "hi\n", False),
    ]
    assert {turn.model for turn in session.turns if turn.role == ASSISTANT} == {"mock-model", "gpt-4o"}


def test_a_failed_outcome_is_an_error_result_and_an_odd_record_is_counted(tmp_path):
    value = json.loads(SESSION.read_text())
    result = next(m for m in value["messages"] if m["role"] == "user" and m["content"][0]["type"] == "tool_result")
    result["content"][0]["content"][0]["success"] = False
    value["messages"].append({"kind": "checkpoint"})
    path = tmp_path / "s.messages.json"
    path.write_text(json.dumps(value))
    (session,) = load_sessions(path)
    assert session.problems == (
        f"message {len(value['messages']) - 1}: not a message with a user or assistant role, skipped",
    )
    assert next(r for t in session.turns for r in t.tool_results).is_error


def test_the_planted_problems_are_found_once_and_the_good_calls_are_clean():
    assert finding_triples(SESSION) == PLANTED


def test_round_trip_unchanged_is_byte_identical():
    assert rendered_unchanged(SESSION) == SESSION.read_text(encoding="utf-8")


def test_fix_output_rereads_as_cline_and_rescans_clean(tmp_path, capsys):
    out = tmp_path / "fixed.messages.json"
    assert fix_all(SESSION, out, capsys)[0] == 0
    assert format_read(out) == "cline" and finding_triples(out) == []
    fixed, original = json.loads(out.read_text()), json.loads(SESSION.read_text())
    (call,) = [m for m in fixed["messages"] if m["id"] not in {o["id"] for o in original["messages"]}][:1]
    assert call["content"][0]["name"] == "read_files" and isinstance(call["ts"], int)
    answer = fixed["messages"][fixed["messages"].index(call) + 1]["content"][0]
    assert answer["tool_use_id"] == call["content"][0]["id"] and answer["content"][0]["success"] is True
    assert fixed["messages"][-8:] == original["messages"][-8:]  # the real calls and what follows are untouched


def test_the_repaired_file_cline_resumed_holds_the_recovered_call_and_the_new_turn():
    (session,) = load_sessions(RESUMED)
    assert finding_triples(RESUMED) == []
    recovered = [c for t in session.turns for c in t.tool_calls if c.id.startswith("call_inspector")]
    assert [c.name for c in recovered] == ["read_files"]
    assert session.turns[-1].text == "The folder holds only notes.txt."


def test_a_session_without_its_system_prompt_is_still_clines_alone(tmp_path):
    value = json.loads(SESSION.read_text())
    del value["system_prompt"], value["origin"]
    path = tmp_path / "s.messages.json"
    path.write_text(json.dumps(value))
    assert specific_claims(path) == ["cline"]


def test_a_session_with_no_messages_is_not_claimed_and_refused_in_one_line(tmp_path, capsys):
    value = json.loads(SESSION.read_text())
    value["messages"] = []
    path = tmp_path / "empty.messages.json"
    path.write_text(json.dumps(value))
    assert main(["scan", str(path), "--format", "cline"]) == 2
    assert capsys.readouterr().err.endswith("empty.messages.json: does not have the shape of the cline format\n")
