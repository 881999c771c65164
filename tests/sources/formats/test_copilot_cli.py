"""GitHub Copilot CLI event logs: the session Copilot CLI 1.0.102 wrote
(`sessions/copilot-cli.events.jsonl`, see `sessions/generate/README.md` for what is planted at
which line), read into turns, written back byte for byte where nothing changed, repaired the way
the CLI writes events, and the repaired log as the real CLI resumed it
(`sessions/copilot-cli.resumed.events.jsonl`)."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.cli.main import main
from inspector.model import ASSISTANT, NOT_EXECUTED, SYSTEM, TOOL, USER
from inspector.sources import load_sessions, render_sessions
from tests.helpers.frameworks import format_read, other_samples, rendered_unchanged, specific_claims
from tests.helpers.samples import TOOL_SAMPLES

SAMPLE = TOOL_SAMPLES / "copilot-cli.events.jsonl"
RESUMED = TOOL_SAMPLES / "copilot-cli.resumed.events.jsonl"
SESSION_ID = "8475b83d-2258-4619-b1b9-acae139dc21a"
PLANTED = [
    (5, "result-prefix", None),
    (12, "tool-markup", "view"),
    (19, "malformed-arguments", "view"),
    (21, "tool-error", "view"),
    (25, "malformed-arguments", "bash"),
    (27, "tool-error", "bash"),
]


def lines_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


def log_with(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "events.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    return path


def findings(path: Path, capsys) -> list[tuple]:
    assert main(["scan", "--json", str(path)]) in (0, 1)
    (session,) = json.loads(capsys.readouterr().out)["sessions"]
    return [(f["turn"], f["kind"], f["tool"]) for f in session["findings"]]


def test_the_log_is_claimed_by_copilot_cli_alone():
    for path in (SAMPLE, RESUMED):
        assert specific_claims(path) == ["copilot-cli"]
        assert format_read(path) == "copilot-cli"
    (session,) = load_sessions(SAMPLE)
    assert (session.format, session.session_id, session.problems) == ("copilot-cli", SESSION_ID, ())


def test_no_other_sample_is_claimed():
    assert all("copilot-cli" not in specific_claims(path) for path in other_samples("copilot-cli"))


def test_messages_and_results_are_the_turns_and_calls_link_to_their_results():
    (session,) = load_sessions(SAMPLE)
    by_line = {turn.position + 1: turn for turn in session.turns}
    assert sorted(by_line) == [2, 3, 6, 10, 13, 17, 20, 22, 26, 28, 32, 34, 38, 40, 44]
    assert [by_line[n].role for n in (2, 10, 17)] == [USER] * 3
    assert by_line[2].text.startswith("Please save a journal memory")  # what was typed, not the dated copy
    assert by_line[3].role == SYSTEM and by_line[3].text.startswith("You are the GitHub Copilot CLI")
    assert by_line[6].role == ASSISTANT and by_line[6].model == "gpt-4.1"
    assert by_line[6].id == json.loads(lines_of(SAMPLE)[5])["id"]
    (good,) = by_line[32].tool_calls
    assert (good.id, good.name, good.arguments) == ("call_mock_good_view", "view", {"path": "/tmp/cp-work/notes.txt"})
    (answer,) = by_line[34].tool_results
    assert by_line[34].role == TOOL and (answer.call_id, answer.name, answer.is_error) == (
        "call_mock_good_view",
        "view",
        False,
    )
    assert answer.content == "Meeting moved to Thursday.\nBring the draft.\n"


def test_a_call_whose_arguments_did_not_parse_carries_the_clis_parse_error():
    (session,) = load_sessions(SAMPLE)
    by_line = {turn.position + 1: turn for turn in session.turns}
    (cut,) = by_line[20].tool_calls
    error = "Expected property name or '}' in JSON at position 42 (line 1 column 43)"
    assert (cut.id, cut.name, cut.arguments_raw, cut.arguments) == ("call_mock_broken_cut", "view", error, None)
    (failed,) = by_line[22].tool_results
    assert (failed.call_id, failed.is_error, failed.content) == ("call_mock_broken_cut", True, error)


def test_the_planted_failures_are_found_and_the_good_calls_stay_clean(capsys):
    assert findings(SAMPLE, capsys) == PLANTED


def test_loading_and_rendering_unchanged_gives_the_same_bytes(tmp_path):
    assert rendered_unchanged(SAMPLE) == SAMPLE.read_text(encoding="utf-8")
    crlf = log_with(tmp_path, [line.replace("\n", "\r\n") for line in lines_of(SAMPLE)])
    assert render_sessions(load_sessions(crlf)).encode() == crlf.read_bytes()


def test_fix_writes_events_as_the_cli_does_and_keeps_the_others_byte_for_byte(tmp_path, capsys):
    out = tmp_path / "fixed.jsonl"
    assert main(["fix", str(SAMPLE), "--accept", "all", "-o", str(out)]) == 1  # two calls have no repair
    assert "2 findings of the accepted kinds have no automatic fix" in capsys.readouterr().out
    before, after = lines_of(SAMPLE), lines_of(out)
    assert len(after) == len(before) + 3
    assert after[:5] == before[:5] and after[6:12] == before[6:12] and after[16:] == before[13:]
    records = [json.loads(line) for line in after]
    assert records[5]["data"]["content"].startswith("You saw right through me.")
    assert {k: v for k, v in records[5].items() if k != "data"} == {
        k: v for k, v in json.loads(before[5]).items() if k != "data"
    }
    message, start, complete, fixed = records[12:16]
    assert [r["type"] for r in (message, start, complete, fixed)] == [
        "assistant.message",
        "tool.execution_start",
        "tool.execution_complete",
        "assistant.message",
    ]
    request = {"toolCallId": "call_inspector_12_0", "name": "view", "arguments": {"path": "/tmp/cp-work/notes.txt"}}
    assert message["data"]["toolRequests"] == [{**request, "type": "function"}]
    assert start["data"] == {"toolCallId": "call_inspector_12_0", "toolName": "view", "arguments": request["arguments"]}
    assert complete["data"] == {
        "toolCallId": "call_inspector_12_0",
        "success": True,
        "result": {"content": NOT_EXECUTED},
    }
    assert fixed["data"]["content"] == "Let me read it." and fixed["id"] == json.loads(before[12])["id"]
    # the events stay one chain: each names the one before it; new ones stamped with the next one's time
    assert [r["parentId"] for r in records[1:]] == [r["id"] for r in records[:-1]]
    assert message["timestamp"] == complete["timestamp"] == fixed["timestamp"]
    assert findings(out, capsys) == [
        (22, "malformed-arguments", "view"),
        (24, "tool-error", "view"),
        (28, "malformed-arguments", "bash"),
        (30, "tool-error", "bash"),
    ]


def test_fix_chains_the_events_of_a_log_whose_first_event_names_no_parent(tmp_path, capsys):
    """A log whose first event has no `parentId` at all (the CLI writes `null`): fixed, the events
    still form one chain, the first keeping no parent."""
    lines = lines_of(SAMPLE)
    first = json.loads(lines[0])
    del first["parentId"]
    path = log_with(tmp_path, [json.dumps(first) + "\n", *lines[1:]])
    out = tmp_path / "fixed.jsonl"
    assert main(["fix", str(path), "--accept", "all", "-o", str(out)]) == 1  # two calls have no repair
    records = [json.loads(line) for line in lines_of(out)]
    assert "parentId" not in records[0] and records[0]["id"] == first["id"]
    assert [r["parentId"] for r in records[1:]] == [r["id"] for r in records[:-1]]
    capsys.readouterr()
    assert findings(out, capsys) == [
        (22, "malformed-arguments", "view"),
        (24, "tool-error", "view"),
        (28, "malformed-arguments", "bash"),
        (30, "tool-error", "bash"),
    ]


def test_the_cli_resumed_the_repaired_log_as_written(tmp_path, capsys):
    out = tmp_path / "fixed.jsonl"
    main(["fix", str(SAMPLE), "--accept", "all", "-o", str(out)])
    capsys.readouterr()
    repaired, resumed = lines_of(out), lines_of(RESUMED)
    assert resumed[: len(repaired)] == repaired  # what fix writes today is what the CLI resumed
    kinds = [json.loads(line)["type"] for line in resumed[len(repaired) :]]
    assert kinds[:2] == ["session.resume", "user.message"] and "assistant.message" in kinds
    assert json.loads(resumed[len(repaired)])["data"]["eventCount"] == len(repaired)
    (session,) = load_sessions(RESUMED)
    assert session.turns[-1].text == "Yes: the notes say the meeting moved to Thursday."
    assert findings(RESUMED, capsys) == findings(out, capsys)


def test_unknown_events_and_bad_lines_are_counted_and_kept_in_place(tmp_path, capsys):
    lines = lines_of(SAMPLE)
    future = json.dumps({"type": "session.future_thing", "data": {}, "id": "x1", "timestamp": "t", "parentId": None})
    odd = json.dumps({"data": {}, "id": "x2"})
    path = log_with(tmp_path, [*lines[:7], future + "\n", future + "\n", odd + "\n", "{not json\n", *lines[7:]])
    (session,) = load_sessions(path)
    assert session.problems == (
        "1 event without a type or a data object, not read as turns",
        "2 events of an unknown type 'session.future_thing', not read as turns; kept as written",
        "line 11: invalid JSON (Expecting property name enclosed in double quotes at column 2), not read; written back as it was",
    )
    assert render_sessions([session]) == path.read_text(encoding="utf-8")
    assert findings(path, capsys)[0] == (5, "result-prefix", None)


def test_a_subagents_events_form_their_own_session(tmp_path):
    lines = lines_of(SAMPLE)
    helper = [json.loads(line) for line in lines[16:24]]
    for event in helper:
        event["agentId"] = "explore-1"
    path = log_with(tmp_path, [*lines[:16], *(json.dumps(e) + "\n" for e in helper), *lines[24:]])
    main_thread, subagent = load_sessions(path)
    assert (main_thread.session_id, subagent.session_id) == (SESSION_ID, f"{SESSION_ID}/agent-explore-1")
    assert [turn.position + 1 for turn in subagent.turns] == [17, 20, 22]
    assert subagent.turns[2].tool_results[0].name == "view"  # linked to the call in the same thread
    assert 17 not in [turn.position + 1 for turn in main_thread.turns]


def test_scan_unknowns_lists_what_a_newer_release_adds_under_its_version(tmp_path, capsys):
    events = [json.loads(line) for line in lines_of(SAMPLE)]
    events[0]["data"]["copilotVersion"] = "1.1.0"
    events[5]["data"]["verdict"] = "ok"
    events[19]["data"]["toolRequests"][0]["sandbox"] = True
    events.append({"type": "session.goal_set", "data": {}, "id": "g1", "timestamp": "t", "parentId": None})
    path = log_with(tmp_path, [json.dumps(event) + "\n" for event in events])
    assert main(["scan", str(path), str(SAMPLE), "--unknowns", "--json"]) == 1
    rows = {
        (r["version"], r["record_type"], r["key"], r["count"]) for r in json.loads(capsys.readouterr().out)["unknowns"]
    }
    assert rows == {
        ("1.1.0", "assistant.message data", "verdict", 1),
        ("1.1.0", "assistant.message toolRequest data", "sandbox", 1),
        ("1.1.0", "session.goal_set", None, 1),
    }
