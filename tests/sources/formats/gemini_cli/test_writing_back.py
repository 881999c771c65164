"""Writing Gemini CLI sessions back: unchanged byte for byte, or repaired in the same container with
every other line kept, a new message or result placed where the CLI would, a rename carried to the
results."""

import json
from dataclasses import replace

from inspector.cli.main import main
from inspector.model import ASSISTANT, NOT_EXECUTED, TOOL, USER
from inspector.sources import load_sessions, render_sessions
from tests.helpers.gemini_cli import (
    DOCUMENT,
    HERMES,
    SAMPLE,
    call_record,
    log_records,
    message_record,
    repair_and_reload,
    tool_specs,
    turn_shapes,
    write_document,
    write_log,
)
from tests.helpers.scanning import finding_triples


def test_round_trip_without_changes(tmp_path):
    for source in (SAMPLE, write_document(tmp_path / "chat.json", DOCUMENT)):
        assert render_sessions(load_sessions(source)) == source.read_text(encoding="utf-8")


def test_lines_are_written_as_the_cli_writes_them():
    """A rewritten line is compact JSON with non-ASCII kept, which is byte for byte what the CLI wrote."""
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    assert [json.dumps(json.loads(line), ensure_ascii=False, separators=(",", ":")) for line in lines] == lines


def test_a_repaired_log_replays_to_the_repaired_messages_and_keeps_every_other_line(tmp_path):
    out = tmp_path / "fixed.jsonl"
    repaired, reloaded = repair_and_reload(SAMPLE, out, tool_specs(tmp_path))
    assert turn_shapes(reloaded.turns) == turn_shapes(repaired.turns)
    before, after = SAMPLE.read_text().splitlines(), out.read_text().splitlines()
    assert len(after) == len(before)  # nothing appended: the new message is in `$set.messages`
    assert [i + 1 for i, (a, b) in enumerate(zip(before, after)) if a != b] == [18, 23]
    (new,) = [m for m in json.loads(after[17])["$set"]["messages"] if "toolCalls" in m]
    assert new["type"] == "gemini" and new["timestamp"] == "2026-11-24T03:12:13.412Z"
    (call,) = new["toolCalls"]
    assert call["status"] == "cancelled" and call["args"] == {"file_path": "notes.txt"}
    assert call["result"][0]["functionResponse"]["response"] == {"output": NOT_EXECUTED}
    assert json.loads(after[22])["toolCalls"][0]["args"] == {"file_path": "notes.txt"}
    assert finding_triples(out, tool_specs(tmp_path)) == [(9, "tool-error", "read_file")]


def test_fix_command_on_the_json_document(tmp_path, capsys):
    source, out = write_document(tmp_path / "chat.json", DOCUMENT), tmp_path / "fixed.json"
    assert main(["fix", str(source), "--accept", "all", "-o", str(out)]) == 1
    fixed = json.loads(out.read_text())
    assert [m["id"] for m in fixed["messages"]][:6] == ["u1", "g1", "u2", fixed["messages"][3]["id"], "g2", "i1"]
    assert fixed["messages"][1]["content"].startswith("You saw right through me.")
    assert fixed["messages"][4]["content"] == "Let me read it."
    assert fixed["messages"][4]["thoughts"] == DOCUMENT["messages"][3]["thoughts"]
    assert fixed["messages"][5:] == DOCUMENT["messages"][4:] and fixed["messages"][2] == DOCUMENT["messages"][2]
    assert {**fixed, "messages": None} == {**DOCUMENT, "messages": None}
    assert finding_triples(out) == [(9, "tool-error", "read_file")]
    (session,) = load_sessions(out)
    assert [p.split(" message")[0] for p in session.problems] == ["1 info", "1 error"]
    assert "[API Error: quota exceeded]" in session.problems[1]


def test_a_log_of_its_first_line_only_and_one_with_crlf_endings(tmp_path):
    one = tmp_path / "one.jsonl"
    one.write_text('{"sessionId":"s-1","projectHash":"p","startTime":"t","lastUpdated":"t","kind":"main"}\n')
    (session,) = load_sessions(one)
    assert (session.format, session.session_id, session.turns) == ("gemini-cli", "s-1", ())
    crlf = tmp_path / "crlf.jsonl"
    crlf.write_bytes(SAMPLE.read_bytes().replace(b"\n", b"\r\n"))
    assert render_sessions(load_sessions(crlf)) == crlf.read_bytes().decode("utf-8")
    repair_and_reload(crlf, tmp_path / "fixed.jsonl")
    fixed, original = (tmp_path / "fixed.jsonl").read_bytes().split(b"\r\n"), crlf.read_bytes().split(b"\r\n")
    assert len(fixed) == len(original) and sum(a != b for a, b in zip(fixed, original)) == 1  # line 18


def test_a_new_message_goes_before_the_first_copy_of_a_message_written_twice(tmp_path):
    hermes = message_record("g2", "gemini", HERMES)
    records = log_records(
        message_record("u1", "user", [{"text": "Read notes.txt"}]),
        {"$set": {"lastUpdated": "x"}},
        hermes,
        {"$set": {"lastUpdated": "y"}},
        {**hermes, "tokens": {"total": 3}},
        message_record("u2", "user", [{"text": "Thanks."}]),
    )
    source = write_log(tmp_path / "log.jsonl", records)
    repaired, reloaded = repair_and_reload(source, tmp_path / "fixed.jsonl")
    assert turn_shapes(reloaded.turns) == turn_shapes(repaired.turns)
    assert [t.role for t in reloaded.turns] == [USER, ASSISTANT, TOOL, ASSISTANT, USER]
    lines = (tmp_path / "fixed.jsonl").read_text().splitlines()
    original = source.read_text().splitlines()
    assert lines[:3] + lines[4:6] + lines[7:] == original[:5] + original[6:]  # one line in, one rewritten
    assert json.loads(lines[3])["toolCalls"][0]["name"] == "read_file"  # before the first copy of g2
    assert json.loads(lines[6]) == {**hermes, "content": "Let me read it.", "tokens": {"total": 3}}


def test_a_result_for_an_unanswered_call_goes_into_that_call(tmp_path):
    call = {
        k: v
        for k, v in call_record("rf-1", "read_file", {"file_path": "a"}, {}).items()
        if k not in ("result", "status")
    }
    records = log_records(
        message_record("u1", "user", [{"text": "read a"}]),
        message_record("g1", "gemini", "", toolCalls=[call]),
        message_record("g2", "gemini", "Done."),
    )
    source = write_log(tmp_path / "log.jsonl", records)
    assert finding_triples(source) == [(1, "orphan-call", "read_file")]
    repaired, reloaded = repair_and_reload(source, tmp_path / "fixed.jsonl")
    assert turn_shapes(reloaded.turns) == turn_shapes(repaired.turns)
    lines = (tmp_path / "fixed.jsonl").read_text().splitlines()
    assert len(lines) == 4 and json.loads(lines[2])["toolCalls"][0]["status"] == "error"
    assert finding_triples(tmp_path / "fixed.jsonl") == [(2, "tool-error", "read_file")]


def test_a_renamed_call_renames_its_results_and_their_repeat(tmp_path):
    (session,) = load_sessions(SAMPLE)
    turns = list(session.turns)
    index = next(i for i, t in enumerate(turns) if t.position == 9)
    turns[index] = replace(
        turns[index], tool_calls=(replace(turns[index].tool_calls[0], name="read_text"),), edited=True
    )
    text = render_sessions([replace(session, turns=tuple(turns))])
    changed = [
        (i + 1, line)
        for i, (line, old) in enumerate(zip(text.splitlines(), SAMPLE.read_text().splitlines()))
        if line != old
    ]
    assert [number for number, _ in changed] == [28, 29]
    assert all('"name":"read_file"' not in line and '"name":"read_text"' in line for _, line in changed)
