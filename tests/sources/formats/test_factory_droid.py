"""Factory Droid sessions: the session Droid wrote (`sessions/factory-droid.jsonl`, see
`sessions/generate/README.md` for what is planted at which line), read into turns, written back
byte for byte where nothing changed, repaired the way Droid writes messages, and the repaired
session as the real Droid resumed it (`sessions/clean.factory-droid.resumed.jsonl`)."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.cli.main import main
from inspector.model import ASSISTANT, NOT_EXECUTED, TOOL, USER
from inspector.sources import load_sessions, render_sessions
from tests.helpers.frameworks import format_read, other_samples, rendered_unchanged, specific_claims
from tests.helpers.samples import TOOL_SAMPLES

SAMPLE = TOOL_SAMPLES / "factory-droid.jsonl"
RESUMED = TOOL_SAMPLES / "clean.factory-droid.resumed.jsonl"
SESSION_ID = "9d5712b0-2785-4fc2-980d-14dfa58a29d9"
PLANTED = [(3, "result-prefix", None), (6, "tool-markup", "Read")]


def lines_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


def session_with(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / f"{SESSION_ID}.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    return path


def findings(path: Path, capsys) -> list[tuple]:
    assert main(["scan", "--json", str(path)]) in (0, 1)
    (session,) = json.loads(capsys.readouterr().out)["sessions"]
    return [(f["turn"], f["kind"], f["tool"]) for f in session["findings"]]


def test_the_session_is_claimed_by_factory_droid_alone():
    for path in (SAMPLE, RESUMED):
        assert specific_claims(path) == ["factory-droid"]
        assert format_read(path) == "factory-droid"
    (session,) = load_sessions(SAMPLE)
    assert (session.format, session.session_id, session.problems) == ("factory-droid", SESSION_ID, ())


def test_no_other_sample_is_claimed():
    assert all("factory-droid" not in specific_claims(path) for path in other_samples("factory-droid"))


def test_messages_are_the_turns_and_calls_link_to_their_results():
    (session,) = load_sessions(SAMPLE)
    by_line = {turn.position + 1: turn for turn in session.turns}
    assert sorted(by_line) == [2, 3, 4, 6, 7, 9, 10, 11, 12, 13, 14, 15, 16]
    assert by_line[2].role == USER and by_line[2].text.startswith("<system-reminder>")
    assert [by_line[n].role for n in (3, 6, 9)] == [USER] * 3
    assert by_line[4].role == ASSISTANT and by_line[4].model == "custom:Mock-0"
    assert by_line[4].id == json.loads(lines_of(SAMPLE)[3])["id"]
    (good,) = by_line[12].tool_calls
    assert (good.id, good.name, good.arguments) == (
        "call_mock_good_read",
        "Read",
        {"file_path": "/tmp/dr-work/notes.txt"},
    )
    (answer,) = by_line[13].tool_results
    assert by_line[13].role == TOOL and (answer.call_id, answer.name, answer.is_error) == (
        "call_mock_good_read",
        "Read",
        False,
    )
    assert answer.content == "Meeting moved to Thursday.\nBring the draft.\n"
    (shell,) = by_line[14].tool_calls
    assert (shell.name, shell.arguments["command"]) == ("Execute", "echo hi")


def test_a_failed_result_is_read_as_an_error(tmp_path, capsys):
    lines = lines_of(SAMPLE)
    record = json.loads(lines[14])
    record["message"]["content"][0].update(is_error=True, content="Error: command not found")
    lines[14] = json.dumps(record) + "\n"
    path = session_with(tmp_path, lines)
    (session,) = load_sessions(path)
    (failed,) = session.turns[-2].tool_results
    assert (failed.call_id, failed.name, failed.is_error) == ("call_mock_good_execute", "Execute", True)
    assert (14, "tool-error", "Execute") in findings(path, capsys)


def test_records_of_an_unknown_type_are_counted_and_kept(tmp_path):
    lines = lines_of(SAMPLE)
    odd = '{"type":"branch_marker","id":"x"}\n'
    path = session_with(tmp_path, [*lines[:5], odd, odd, *lines[5:]])
    (session,) = load_sessions(path)
    assert session.problems == (
        "2 records of type 'branch_marker' (first at line 6) not read as turns, kept as they are",
    )
    assert render_sessions([session]) == path.read_text(encoding="utf-8")


def test_scan_unknowns_lists_new_record_types_and_message_keys(tmp_path, capsys):
    assert main(["scan", str(SAMPLE), str(RESUMED), "--unknowns"]) == 0
    lines = lines_of(SAMPLE)
    reply = json.loads(lines[3])
    reply["branchId"] = "b1"
    odd = '{"type":"branch_marker","id":"x"}\n'
    path = session_with(tmp_path, [*lines[:3], json.dumps(reply) + "\n", odd, *lines[4:]])
    capsys.readouterr()
    assert main(["scan", str(path), "--unknowns", "--json"]) == 1
    rows = {
        (r["format"], r["version"], r["record_type"], r["key"]): r["count"]
        for r in json.loads(capsys.readouterr().out)["unknowns"]
    }
    assert rows == {
        ("factory-droid", None, "message", "branchId"): 1,
        ("factory-droid", None, "branch_marker", None): 1,
    }


def test_the_planted_failures_are_found_and_the_good_calls_stay_clean(capsys):
    assert findings(SAMPLE, capsys) == PLANTED


def test_loading_and_rendering_unchanged_gives_the_same_bytes(tmp_path):
    assert rendered_unchanged(SAMPLE) == SAMPLE.read_text(encoding="utf-8")
    crlf = session_with(tmp_path, [line.replace("\n", "\r\n") for line in lines_of(SAMPLE)])
    assert render_sessions(load_sessions(crlf)).encode() == crlf.read_bytes()


def test_fix_writes_messages_as_droid_does_and_keeps_the_others_byte_for_byte(tmp_path, capsys):
    out = tmp_path / "fixed.jsonl"
    assert main(["fix", str(SAMPLE), "--accept", "all", "-o", str(out)]) == 0
    capsys.readouterr()
    before, after = lines_of(SAMPLE), lines_of(out)
    assert len(after) == len(before) + 2
    assert after[:3] == before[:3] and after[4:6] == before[4:6] and after[9:] == before[7:]
    records = [json.loads(line) for line in after]
    fixed_reply = records[3]
    assert fixed_reply["message"]["content"] == [
        {"type": "text", "text": json.loads(before[3])["message"]["content"][0]["text"].split("}", 1)[1]}
    ]
    assert {k: v for k, v in fixed_reply.items() if k != "message"} == {
        k: v for k, v in json.loads(before[3]).items() if k != "message"
    }
    call, result, text = records[6:9]
    assert list(call) == ["type", "id", "parentId", "timestamp", "message"]
    assert call["message"] == {
        "role": "assistant",
        "content": [
            {
                "type": "tool_use",
                "id": "call_inspector_6_0",
                "name": "Read",
                "input": {"file_path": "/tmp/dr-work/notes.txt"},
            }
        ],
    }
    assert result["message"] == {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "call_inspector_6_0", "is_error": False, "content": NOT_EXECUTED}
        ],
    }
    assert text["id"] == json.loads(before[6])["id"] and text["message"]["content"] == [
        {"type": "text", "text": "Let me read it."}
    ]
    # the messages stay one chain: each names the one before it
    messages = [r for r in records if r["type"] == "message"]
    assert [r.get("parentId") for r in messages[1:]] == [r["id"] for r in messages[:-1]]
    assert findings(out, capsys) == []


def test_droid_resumed_the_repaired_session_as_written(tmp_path, capsys):
    out = tmp_path / "fixed.jsonl"
    main(["fix", str(SAMPLE), "--accept", "all", "-o", str(out)])
    capsys.readouterr()
    repaired, resumed = lines_of(out), lines_of(RESUMED)
    new_ids = {json.loads(repaired[n])["id"]: json.loads(resumed[n])["id"] for n in (6, 7)}  # fresh uuids each fix
    renamed = "".join(repaired)
    for ours, theirs in new_ids.items():
        renamed = renamed.replace(ours, theirs)
    assert "".join(resumed[: len(repaired)]) == renamed  # what fix writes today is what Droid resumed
    appended = [json.loads(line) for line in resumed[len(repaired) :]]
    assert appended[0]["id"].startswith("context-") and appended[0]["parentId"] == json.loads(repaired[-2])["id"]
    (session,) = load_sessions(RESUMED)
    assert session.turns[-1].text == "Yes: the notes say the meeting moved to Thursday."
    assert findings(RESUMED, capsys) == []


def test_a_reply_of_markup_alone_gets_its_call_and_the_result_hangs_after_it(tmp_path, capsys):
    lines = lines_of(SAMPLE)
    record = json.loads(lines[6])
    record["message"]["content"][0]["text"] = record["message"]["content"][0]["text"].removeprefix("Let me read it.\n")
    path = session_with(tmp_path, [*lines[:6], json.dumps(record, separators=(",", ":")) + "\n", *lines[7:]])
    out = tmp_path / "fixed.jsonl"
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 0
    capsys.readouterr()
    records = [json.loads(line) for line in lines_of(out)]
    reply, result = records[6:8]
    assert reply["id"] == record["id"] and reply["message"]["content"] == [
        {
            "type": "tool_use",
            "id": "call_inspector_6_0",
            "name": "Read",
            "input": {"file_path": "/tmp/dr-work/notes.txt"},
        }
    ]
    assert (result["parentId"], result["message"]["content"][0]["tool_use_id"]) == (reply["id"], "call_inspector_6_0")
    assert records[9]["parentId"] == result["id"]  # the next prompt hangs from the new result
    assert lines_of(out)[8] == lines[7]  # the run's outcome record, untouched
    assert findings(out, capsys) == []
