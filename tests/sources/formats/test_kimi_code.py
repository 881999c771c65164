"""Kimi Code wire files: `sessions/kimi-code.wire.jsonl`, and a delegating main agent's and its
subagent's (`kimi-code.delegating.wire.jsonl`, `kimi-code.subagent.wire.jsonl`), written by
Kimi Code 2.1.0 against the scripted mock (`sessions/generate/kimi_code.py`,
`kimi_code_subagent.py`), read into turns; the format is read-only."""

from __future__ import annotations

import json

import pytest

from inspector.model import ASSISTANT, TOOL, USER
from inspector.sources import FORMATS, load_sessions
from inspector.sources.files.document import read_document
from tests.helpers.frameworks import fix_all, format_read, other_samples, specific_claims
from tests.helpers.samples import TOOL_SAMPLES
from tests.helpers.scanning import finding_triples

WIRE = TOOL_SAMPLES / "kimi-code.wire.jsonl"
DELEGATING = TOOL_SAMPLES / "kimi-code.delegating.wire.jsonl"
SUBAGENT = TOOL_SAMPLES / "kimi-code.subagent.wire.jsonl"
PLANTED = [
    (18, "result-prefix", None),
    (34, "tool-markup", "Read"),
    (73, "malformed-arguments", "Read"),
    (74, "tool-error", "Read"),
]


@pytest.mark.parametrize("path", [WIRE, DELEGATING, SUBAGENT], ids=lambda p: p.name)
def test_the_wire_file_is_kimi_code_and_no_other_specific_format_claims_it(path):
    assert specific_claims(path) == ["kimi-code"]
    assert format_read(path) == "kimi-code"


@pytest.mark.parametrize("path", other_samples("kimi-code"), ids=lambda p: p.name)
def test_kimi_code_claims_no_other_sample(path):
    assert not FORMATS["kimi-code"].claims(read_document(path))


def test_the_appended_messages_are_the_turns_and_kimi_codes_own_records_stay_out_of_them():
    (session,) = load_sessions(WIRE)
    assert session.problems == ()
    assert [turn.role for turn in session.turns] == [USER, ASSISTANT] * 3 + [TOOL, ASSISTANT] * 3
    assert session.turns[0].text.startswith("Please save a journal memory")  # not the reminders injected after it
    (broken,) = session.turns[5].tool_calls
    assert (broken.id, broken.name, broken.arguments) == ("call_mock_bad", "Read", None)
    assert broken.arguments_raw.endswith("}}}}")  # as the model wrote it (the loop ran it with {})
    (failed,) = session.turns[6].tool_results
    assert (failed.call_id, failed.name, failed.is_error) == ("call_mock_bad", "Read", True)
    assert failed.content.startswith('Invalid args for tool "Read"')
    (good,) = session.turns[7].tool_calls
    assert (good.name, good.arguments) == ("Read", {"path": "/tmp/km-work/notes.txt"})
    (answer,) = session.turns[8].tool_results
    assert (answer.call_id, answer.is_error, answer.content) == (
        "call_mock_good",
        False,
        "1\tMeeting moved to Thursday.\n2\tBring the draft.",
    )
    assert {"Read", "Bash", "Write"} <= {tool.name for tool in session.tools}  # the tools offered


def test_the_planted_problems_are_found_once_and_the_good_calls_are_clean():
    assert finding_triples(WIRE) == PLANTED


def test_a_record_of_an_unknown_type_is_counted_and_a_message_of_an_unknown_role_too(tmp_path):
    lines = WIRE.read_text(encoding="utf-8").splitlines()
    message = {"message": {"message": {"role": "critic", "content": []}}, "type": "agent.message.appended"}
    lines[3:3] = [json.dumps({"type": "context.compacted", "summary": "earlier turns"}), json.dumps(message)]
    path = tmp_path / "wire.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (session,) = load_sessions(path)
    assert session.problems == (
        "1 record of a type not known, kept",
        "1 message of an unknown role not read as a turn",
    )
    assert len(session.turns) == 12


def test_a_session_is_named_by_its_folder_where_kimi_code_keeps_it_and_a_subagent_by_its_agent_too(tmp_path):
    folder = tmp_path / "sessions" / "wd_work_1a2b" / "session_4a1afc25-c1a4-41e8-b80a-2a367ffe82d8"
    named = {}
    for agent, sample in (("main", DELEGATING), ("agent-0", SUBAGENT)):
        path = folder / "agents" / agent / "wire.jsonl"
        path.parent.mkdir(parents=True)
        path.write_bytes(sample.read_bytes())
        (session,) = load_sessions(path)
        named[agent] = session.session_id
    assert named == {
        "main": "session_4a1afc25-c1a4-41e8-b80a-2a367ffe82d8",  # what `kimi -r` takes
        "agent-0": "session_4a1afc25-c1a4-41e8-b80a-2a367ffe82d8/agent-0",
    }


def test_a_delegating_agent_s_subagent_records_are_known_and_the_fake_its_agent_got_is_flagged():
    (session,) = load_sessions(DELEGATING)
    assert session.problems == ()  # Kimi Code's subagent.spawned, .started and .completed kept in place
    records = [json.loads(line) for line in DELEGATING.read_text(encoding="utf-8").splitlines()]
    assert {"subagent.spawned", "subagent.started", "subagent.completed"} <= {record["type"] for record in records}
    assert [turn.role for turn in session.turns] == [USER, ASSISTANT, TOOL, ASSISTANT]
    (call,) = session.turns[1].tool_calls
    assert (call.name, call.arguments["subagent_type"]) == ("Agent", "explore")
    (result,) = session.turns[2].tool_results
    assert (result.call_id, result.is_error) == ("call_mock_agent", False)
    assert result.content.startswith("agent_id: agent-0\n")  # the subagent's summary, handed back
    assert finding_triples(DELEGATING) == [(30, "relayed-fake-result", "Agent")]  # the summary opens with it
    assert FORMATS["kimi-code"].survey(read_document(DELEGATING)) == ()


def test_a_subagent_s_wire_file_is_a_conversation_of_its_own_and_its_fake_result_is_found():
    (session,) = load_sessions(SUBAGENT)
    assert session.problems == ()
    assert [turn.role for turn in session.turns] == [USER, ASSISTANT]
    assert session.turns[0].text.endswith("Read notes.txt in the working folder and report what it says.")
    assert finding_triples(SUBAGENT) == [(17, "result-prefix", None)]


def test_the_unknowns_survey_names_a_new_record_type_and_a_new_key_under_the_wire_protocol(tmp_path):
    assert FORMATS["kimi-code"].survey(read_document(WIRE)) == ()
    records = [json.loads(line) for line in WIRE.read_text(encoding="utf-8").splitlines()]
    records.insert(3, {"type": "context.compacted", "summary": "earlier turns"})
    message = next(record for record in records if record["type"] == "agent.message.appended")
    message["message"]["message"]["reasoning"] = "a key of a newer release"
    path = tmp_path / "wire.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    unread = {(u.version, u.record_type, u.key, u.count) for u in FORMATS["kimi-code"].survey(read_document(path))}
    assert unread == {
        ("wire protocol 1.5", "context.compacted", None, 1),
        ("wire protocol 1.5", "message", "reasoning", 1),
    }


def test_fix_says_in_one_line_that_the_format_cannot_be_written(tmp_path, capsys):
    code, error = fix_all(WIRE, tmp_path / "fixed.jsonl", capsys)
    assert code == 2 and "kimi-code format cannot be written" in error and len(error.splitlines()) == 1
