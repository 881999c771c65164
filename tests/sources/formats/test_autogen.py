"""AutoGen AgentChat 0.7: an agent's `save_state()` and a run's `TaskResult.messages`, both written
by AutoGen with autogen-ext's `ReplayChatCompletionClient` (`sessions/
autogen.state.json`, `autogen.messages.json`, see `sessions/generate/README.md`)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from inspector.model import ASSISTANT, TOOL
from inspector.sources import FORMATS, load_sessions
from inspector.sources.files.document import read_document
from tests.helpers.frameworks import fix_all, format_read, other_samples, rendered_unchanged, specific_claims
from tests.helpers.samples import TOOL_SAMPLES
from tests.helpers.scanning import finding_triples

STATE = TOOL_SAMPLES / "autogen.state.json"
TRANSCRIPT = TOOL_SAMPLES / "autogen.messages.json"
PLANTED_STATE = [
    (1, "result-prefix", None),
    (3, "tool-markup", "read_file"),
    (5, "malformed-arguments", "read_file"),
    (6, "tool-error", "read_file"),
]
PLANTED_TRANSCRIPT = [
    (1, "result-prefix", None),
    (3, "tool-markup", "read_file"),
    (6, "malformed-arguments", "read_file"),
    (7, "tool-error", "read_file"),
]


@pytest.mark.parametrize("path", [STATE, TRANSCRIPT], ids=lambda p: p.name)
def test_both_shapes_are_autogen_and_no_other_specific_format_claims_them(path):
    assert specific_claims(path) == ["autogen"]
    assert format_read(path) == "autogen"


@pytest.mark.parametrize("path", other_samples("autogen"), ids=lambda p: p.name)
def test_autogen_claims_no_other_sample(path):
    assert not FORMATS["autogen"].claims(read_document(path))


def test_the_state_reads_calls_with_their_thought_and_results_by_call_id():
    (session,) = load_sessions(STATE)
    assert session.problems == ()
    broken = session.turns[5]
    assert broken.role == ASSISTANT and broken.text == "Reading notes.txt with the real tool."
    assert broken.tool_calls[0].arguments_raw == '{"file_path": "notes.txt"'
    answer = session.turns[6].tool_results[0]
    assert (answer.call_id, answer.name, answer.is_error) == ("call_mock_broken_cut", "read_file", True)


def test_the_transcript_keeps_the_summary_message_unread_and_counts_unknown_types(tmp_path):
    (session,) = load_sessions(TRANSCRIPT)
    assert session.problems == ()
    assert [t.role for t in session.turns if t.tool_results] == [TOOL, TOOL]
    records = json.loads(TRANSCRIPT.read_text()) + [{"type": "HandoffMessage", "source": "a", "content": "to b"}]
    path = tmp_path / "t.json"
    path.write_text(json.dumps(records))
    assert load_sessions(path)[0].problems == ("1 message of type 'HandoffMessage' not read as turns",)


@pytest.mark.parametrize(
    ("path", "planted"), [(STATE, PLANTED_STATE), (TRANSCRIPT, PLANTED_TRANSCRIPT)], ids=["state", "transcript"]
)
def test_the_planted_problems_are_found_once_and_the_good_call_is_clean(path, planted):
    assert finding_triples(path) == planted


@pytest.mark.parametrize("path", [STATE, TRANSCRIPT], ids=lambda p: p.name)
def test_round_trip_unchanged_is_byte_identical(path):
    assert rendered_unchanged(path) == path.read_text(encoding="utf-8")


def test_fix_of_the_state_rereads_and_rescans_clean(tmp_path, capsys):
    out = tmp_path / "fixed.json"
    assert fix_all(STATE, out, capsys)[0] == 1
    assert format_read(out) == "autogen"
    assert finding_triples(out) == [(8, "tool-error", "read_file")]  # an error result is reported, not fixed
    messages = json.loads(out.read_text())["llm_context"]["messages"]
    assert messages[3]["type"] == "AssistantMessage" and messages[3]["content"][0]["name"] == "read_file"
    assert messages[4]["type"] == "FunctionExecutionResultMessage"
    assert messages[4]["content"][0]["call_id"] == messages[3]["content"][0]["id"]
    assert messages[-4:] == json.loads(STATE.read_text())["llm_context"]["messages"][-4:]


def test_fix_of_a_transcript_says_it_is_read_only(tmp_path, capsys):
    code, error = fix_all(TRANSCRIPT, tmp_path / "fixed.json", capsys)
    assert code == 2 and "read-only" in error and len(error.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_a_renamed_call_and_its_result_are_written_under_the_new_name():
    (session,) = load_sessions(STATE)
    turns = list(session.turns)
    call = turns[7].tool_calls[0]
    turns[7] = replace(turns[7], tool_calls=(replace(call, name="read_text"),), edited=True)
    turns[8] = replace(turns[8], tool_results=(replace(turns[8].tool_results[0], name="read_text"),), edited=True)
    text = FORMATS["autogen"].write(session.document, [replace(session, turns=tuple(turns))])
    messages = json.loads(text)["llm_context"]["messages"]
    assert messages[7]["content"][0] == {
        **json.loads(STATE.read_text())["llm_context"]["messages"][7]["content"][0],
        "name": "read_text",
    }
    assert (
        messages[8]["content"][0]["name"] == "read_text"
        and messages[9:] == json.loads(STATE.read_text())["llm_context"]["messages"][9:]
    )
