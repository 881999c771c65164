"""LiteLLM logs: the `standard_logging_object` of each model call, one per line, as litellm 1.106
wrote them through a `CustomLogger` with `mock_response` / `mock_tool_calls`
(tests/fixtures/generate/litellm_log.py): detected by the payload's own keys, read as one
conversation rebuilt from the calls' repeated histories (each problem once, at its turn), and
read-only: `fix` refuses with one line."""

import json

from conftest import SESSIONS

from inspector.cli.main import main
from inspector.model import ASSISTANT, SYSTEM, TOOL, USER
from inspector.scan.scanner import scan_file
from inspector.sources import load_sessions, render_sessions
from inspector.sources.files.document import read_document
from inspector.sources.files.formats import SPECIFIC, format_of

LOG = SESSIONS / "notes-agent.litellm.jsonl"
PLANTED = [(2, "result-prefix", None), (4, "tool-markup", "read_file"),
           (6, "malformed-arguments", "read_file"), (8, "malformed-arguments", "read_file")]


def _lines():
    return LOG.read_text(encoding="utf-8").splitlines(keepends=True)


def test_detected_as_litellm_by_its_own_keys_and_by_no_other_specific_format():
    document = read_document(LOG)
    assert [module.NAME for module in SPECIFIC if module.matches(document)] == ["litellm"]
    assert format_of(document).NAME == "litellm"


def test_one_conversation_from_six_calls_each_problem_found_once():
    (result,) = scan_file(LOG)
    assert result.session.session_id == "notes-agent-litellm"
    assert [(f.turn, f.kind, f.tool) for f in result.findings] == PLANTED
    assert result.session.problems == ()
    turns = result.session.turns
    assert [t.role for t in turns] == [SYSTEM, USER, ASSISTANT, USER, ASSISTANT, USER, ASSISTANT, TOOL,
                                       ASSISTANT, TOOL, ASSISTANT, TOOL, ASSISTANT]
    (good,) = turns[10].tool_calls  # the good call, answered with the file: clean
    assert (good.id, good.arguments) == ("call_good", {"file_path": "notes.txt"})
    assert turns[11].tool_results[0].name == "read_file"
    assert turns[12].text == "notes.txt says the meeting moved to Thursday."
    assert [tool.name for tool in result.session.tools] == ["read_file"]


def test_calls_out_of_order_two_conversations_and_a_retry(tmp_path):
    lines = _lines()
    other = json.loads(lines[0])
    other.update(trace_id="other", startTime=0.0)
    retry = json.loads(lines[2])  # the third call sent again after the fourth: not read
    retry["startTime"] = json.loads(lines[3])["startTime"] + 0.01
    path = tmp_path / "log.jsonl"
    path.write_text("".join(reversed(lines)) + json.dumps(other) + "\n" + json.dumps(retry) + "\n", encoding="utf-8")
    first, second = scan_file(path)
    assert [(f.turn, f.kind) for f in first.findings][:2] == [(2, "result-prefix"), (4, "tool-markup")]
    assert len(first.session.turns) == 13
    assert first.session.problems == (
        "line 8: its input repeats only 6 of the 9 messages before it (a retry or a branch); the call is not read",)
    assert (second.session.session_id, [f.kind for f in second.findings]) == ("other", ["result-prefix"])


def test_a_cut_off_last_line_and_another_call_type_are_reported(tmp_path):
    lines = _lines()
    embedding = {**json.loads(lines[0]), "call_type": "embedding"}
    path = tmp_path / "cut.jsonl"
    path.write_text(json.dumps(embedding) + "\n" + "".join(lines[:3]) + lines[3][:200], encoding="utf-8")
    (session,) = load_sessions(path)
    assert session.problems[0].startswith("line 5: invalid JSON")
    assert session.problems[1] == "1 payload of call type 'embedding' not read as turns"
    assert len(session.turns) == 7


def test_round_trip_unchanged_and_fix_refused_with_one_line(tmp_path, capsys):
    assert render_sessions(load_sessions(LOG)) == LOG.read_text(encoding="utf-8")
    out = tmp_path / "fixed.jsonl"
    assert main(["fix", str(LOG), "--accept", "all", "-o", str(out)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "the litellm format cannot be written as a copy" in error
    assert not out.exists()
    assert main(["fix", str(LOG), "--accept", "all", "--in-place"]) == 2
    assert "cannot be written in place" in capsys.readouterr().err
