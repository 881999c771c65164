"""LiteLLM logs: the `standard_logging_object` of each model call, one per line, as litellm 1.106
wrote them through a `CustomLogger` with `mock_response` / `mock_tool_calls`
(sessions/generate/litellm_log.py): detected by the payload's own keys, read as one
conversation rebuilt from the calls' repeated histories (each problem once, at its turn), and
read-only: `fix` refuses with one line."""

import json

from inspector.cli.main import main
from inspector.model import ASSISTANT, SYSTEM, TOOL, USER
from inspector.scan.scanner import scan_file
from inspector.sources import load_sessions, render_sessions
from inspector.sources.files.document import read_document
from inspector.sources.formats import SPECIFIC, format_of
from tests.helpers.samples import SESSIONS, TOOL_SAMPLES
from tests.helpers.timing import cpu_time

LOG = SESSIONS / "notes-agent.litellm.jsonl"
# The same agent loop, its calls passing no `litellm_trace_id` (as most apps call `completion`):
# litellm 1.106 wrote each call under a trace of its own and no session id.
UNTRACED = TOOL_SAMPLES / "litellm.no-trace-id.jsonl"
PLANTED = [
    (2, "result-prefix", None),
    (4, "tool-markup", "read_file"),
    (6, "malformed-arguments", "read_file"),
    (8, "malformed-arguments", "read_file"),
]


def _lines():
    return LOG.read_text(encoding="utf-8").splitlines(keepends=True)


def test_detected_as_litellm_by_its_own_keys_and_by_no_other_specific_format():
    document = read_document(LOG)
    assert [file_format.name for file_format in SPECIFIC if file_format.claims(document)] == ["litellm"]
    assert format_of(document).name == "litellm"


def test_one_conversation_from_six_calls_each_problem_found_once():
    (result,) = scan_file(LOG)
    assert result.session.session_id == "notes-agent-litellm"
    assert [(f.turn, f.kind, f.tool) for f in result.findings] == PLANTED
    assert result.session.problems == ()
    turns = result.session.turns
    assert [t.role for t in turns] == [
        SYSTEM,
        USER,
        ASSISTANT,
        USER,
        ASSISTANT,
        USER,
        ASSISTANT,
        TOOL,
        ASSISTANT,
        TOOL,
        ASSISTANT,
        TOOL,
        ASSISTANT,
    ]
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
        "line 8: its input repeats only 6 of the 9 messages before it (a retry or a branch); the call is not read",
    )
    assert (second.session.session_id, [f.kind for f in second.findings]) == ("other", ["result-prefix"])


def _untraced():
    return [json.loads(line) for line in UNTRACED.read_text(encoding="utf-8").splitlines()]


def _write_calls(path, records):
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


def test_calls_without_a_session_or_shared_trace_are_one_conversation_by_what_they_repeat():
    records = _untraced()
    assert len({record["trace_id"] for record in records}) == 6 and {record["session_id"] for record in records} == {""}
    (result,) = scan_file(UNTRACED)
    assert [(f.turn, f.kind, f.tool) for f in result.findings] == PLANTED
    assert (result.session.session_id, result.session.problems) == (records[0]["trace_id"], ())
    (traced,) = scan_file(LOG)
    assert [(t.role, t.text) for t in result.session.turns] == [(t.role, t.text) for t in traced.session.turns]


def _another_person(message):
    """The message as a second conversation has it: its own words, its own call ids."""
    if message["role"] in ("user", "assistant") and message.get("content"):
        message["content"] += " (another person)"
    for call in message.get("tool_calls") or ():
        call["id"] += "-b"
    if message["role"] == "tool":
        message["tool_call_id"] += "-b"


def test_two_untraced_conversations_interleaved_stay_two(tmp_path):
    """A second conversation (its own words and call ids in every call that repeats them), its
    calls between the first one's, is its own session: each problem once per conversation."""
    first = _untraced()
    second = json.loads(json.dumps(first))
    for record in second:
        for message in record["messages"] + [record["response"]["choices"][0]["message"]]:
            _another_person(message)
        record["trace_id"] += "-b"
        record["startTime"] += 0.001
    interleaved = [record for pair in zip(first, second) for record in pair]
    results = scan_file(_write_calls(tmp_path / "two.jsonl", interleaved))
    assert [r.session.session_id for r in results] == [first[0]["trace_id"], second[0]["trace_id"]]
    assert [[(f.turn, f.kind, f.tool) for f in r.findings] for r in results] == [PLANTED, PLANTED]
    assert results[1].session.turns[1].text.endswith(" (another person)")


def test_many_untraced_single_calls_are_read_in_linear_time(tmp_path):
    """3,000 one-call conversations, each its own question: 3,000 sessions, read fast."""
    template = _untraced()[0]
    records = []
    for number in range(3000):
        record = json.loads(json.dumps(template))
        record["messages"][1]["content"] = f"Question {number}"
        record["trace_id"] = f"trace-{number}"
        records.append(record)
    path = _write_calls(tmp_path / "many.jsonl", records)
    started = cpu_time()
    sessions = load_sessions(path)
    assert cpu_time() - started < 20
    assert len(sessions) == 3000 and all(len(session.turns) == 3 for session in sessions)


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
