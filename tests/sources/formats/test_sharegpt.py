"""ShareGPT / Hermes function-calling datasets (written by hand in the published
hermes-function-calling-v1 and LLaMA-Factory shapes: sessions/generate/sharegpt_dataset.py):
a `<tool_call>` in a `gpt` turn is the real call, read as structured and never reported as leaked
markup; a round trip is byte-identical and a repair rewrites only the text it cut and the bodies of
the calls it repaired."""

import json

from inspector.cli.main import main
from inspector.model import ASSISTANT, SYSTEM, TOOL, USER
from inspector.scan.scanner import scan_file
from inspector.sources import FORMATS, load_sessions, render_sessions
from inspector.sources.files.document import read_document
from tests.helpers.samples import SESSIONS

SAMPLE = SESSIONS / "notes-agent.sharegpt.jsonl"
PLANTED = {
    "notes-hermes": [(2, "result-prefix", None), (4, "malformed-arguments", "read_file")],
    "notes-unknown-tool": [(2, "unknown-tool", "read_notes")],
    "notes-function-call": [],
}


def test_detected_as_sharegpt_and_by_no_other_format():
    document = read_document(SAMPLE)
    assert [name for name, file_format in FORMATS.items() if file_format.claims(document)] == ["sharegpt"]


def test_a_json_list_of_examples_is_read_too(tmp_path):
    listed = tmp_path / "dataset.json"
    listed.write_text(json.dumps([json.loads(line) for line in SAMPLE.read_text().splitlines()], indent=2))
    sessions = load_sessions(listed)
    assert [s.session_id for s in sessions] == list(PLANTED)
    assert render_sessions(sessions) == listed.read_text() + "\n"


def test_every_planted_problem_is_found_once_and_the_real_calls_are_not_leaked_markup():
    found = {r.session.session_id: [(f.turn, f.kind, f.tool) for f in r.findings] for r in scan_file(SAMPLE)}
    assert found == PLANTED


def test_calls_are_structured_and_the_text_is_the_value_without_them():
    hermes, unknown, dialect = load_sessions(SAMPLE)
    turns = hermes.turns
    assert [t.role for t in turns] == [SYSTEM, USER, ASSISTANT, USER, ASSISTANT, TOOL, ASSISTANT, TOOL, ASSISTANT]
    assert turns[4].text == "Reading notes.txt with the real tool.\n"
    (broken,) = turns[4].tool_calls
    assert (broken.name, broken.arguments_raw, broken.arguments) == ("read_file", '{"path": "notes.txt"}}}', None)
    assert "<tool_call>" not in turns[6].text
    (good,) = turns[6].tool_calls
    assert (good.name, good.arguments) == ("read_file", {"path": "notes.txt"})
    (answer,) = turns[7].tool_results
    assert (answer.name, answer.content) == ("read_file", "Meeting moved to Thursday.\nBring the draft.\n")
    assert [spec.name for spec in hermes.tools] == ["read_file"]
    (call,) = dialect.turns[1].tool_calls
    assert (call.name, call.arguments, dialect.turns[2].tool_results[0].name) == (
        "read_file",
        {"path": "notes.txt"},
        "read_file",
    )


def test_round_trip_without_changes_is_byte_identical():
    assert render_sessions(load_sessions(SAMPLE)) == SAMPLE.read_text(encoding="utf-8")


def test_fix_rewrites_only_the_changed_bodies_and_rescans_clean(tmp_path):
    out = tmp_path / "fixed.jsonl"
    assert main(["fix", str(SAMPLE), "--accept", "all", "-o", str(out)]) == 0  # findings were reported
    assert all(not r.findings for r in scan_file(out))
    before, after = SAMPLE.read_text().splitlines(), out.read_text().splitlines()
    assert after[2] == before[2]  # the clean example, byte for byte
    old, new = (json.loads(line)["conversations"] for line in (before[0], after[0]))
    assert new[2]["value"].startswith("You saw right through me.")
    assert new[4]["value"] == old[4]["value"].replace("}}}}", "}}")
    assert new[6:] == old[6:]
    renamed = json.loads(after[1])["conversations"]
    assert '"name": "read_file"' in renamed[2]["value"] and '"name": "read_file"' in renamed[3]["value"]


def test_other_markup_printed_as_text_is_still_leaked_markup(tmp_path):
    path = tmp_path / "leak.jsonl"
    leak = 'Let me read it.\n<function=read_file>{"path": "notes.txt"}</function>'
    path.write_text(
        json.dumps({"conversations": [{"from": "human", "value": "Read notes.txt"}, {"from": "gpt", "value": leak}]})
        + "\n"
    )
    (result,) = scan_file(path)
    assert [f.kind for f in result.findings] == ["tool-markup"]


def test_odd_turns_and_a_cut_off_last_line_are_problems(tmp_path):
    path = tmp_path / "odd.jsonl"
    first = json.dumps(
        {
            "conversations": [
                {"from": "human", "value": "hi"},
                {"from": "robot", "value": "?"},
                {"from": "gpt", "value": "hello"},
            ]
        }
    )
    path.write_text(first + "\n" + first[:30])
    (session,) = load_sessions(path)
    assert [t.role for t in session.turns] == [USER, ASSISTANT]
    assert session.problems[0].startswith("line 2: invalid JSON")
    assert "1 turn without a known `from`" in session.problems[1]
    assert render_sessions([session]) == path.read_text()


def test_a_python_dict_body_as_hermes_first_datasets_wrote_it_is_a_clean_call(tmp_path):
    path = tmp_path / "hermes-v1.json"
    body = "<tool_call>\n{'arguments': {'path': 'notes.txt'}, 'name': 'read_file'}\n</tool_call>"
    path.write_text(
        json.dumps([{"conversations": [{"from": "human", "value": "Read notes.txt"}, {"from": "gpt", "value": body}]}])
    )
    (result,) = scan_file(path)
    (call,) = result.session.turns[1].tool_calls
    assert (call.name, call.arguments, result.session.turns[1].text) == ("read_file", {"path": "notes.txt"}, "")
    assert [f.kind for f in result.findings] == ["orphan-call"]


def test_only_gpt_turns_split_calls_and_unnamed_results_answer_the_last_calls_in_order(tmp_path):
    path = tmp_path / "turns.json"
    call = '<tool_call>\n{"name": "%s", "arguments": {}}\n</tool_call>'
    named = '<tool_response>\n{"name": "b", "content": "two"}\n</tool_response>'
    path.write_text(
        json.dumps(
            [
                {
                    "conversations": [
                        {"from": "human", "value": call % "typed_by_the_user"},
                        {"from": "system", "value": call % "in_the_prompt"},
                        {"from": "gpt", "value": call % "a" + call % "b"},
                        {"from": "tool", "value": "plain"},
                        {"from": "tool", "value": named + "<tool_response>\nnot json\n</tool_response>"},
                        {"from": "observation", "value": "seen"},
                    ]
                }
            ]
        )
    )
    (session,) = load_sessions(path)
    user, system, gpt, plain, mixed, observation = session.turns
    assert (user.tool_calls, system.tool_calls, user.text) == ((), (), call % "typed_by_the_user")
    assert [c.name for c in gpt.tool_calls] == ["a", "b"] and gpt.text == ""
    assert [(r.name, r.content) for r in plain.tool_results] == [("a", "plain")]
    assert [(r.name, r.content) for r in mixed.tool_results] == [("b", "two"), ("a", "not json")]
    assert [(r.name, r.content) for r in observation.tool_results] == [("a", "seen")]
