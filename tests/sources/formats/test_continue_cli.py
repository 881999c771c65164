"""Continue CLI sessions: the session `cn` 1.5.47 wrote (`sessions/continue.session.json`, see
`sessions/generate/README.md` for what is planted in which item), read into turns, written back
byte for byte where nothing changed, repaired the way the CLI writes its history, and the repaired
session as the real CLI resumed it (`sessions/continue.resumed.session.json`)."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.cli.main import main
from inspector.model import ASSISTANT, NOT_EXECUTED, TOOL, USER
from inspector.sources import load_sessions, render_sessions
from tests.helpers.frameworks import format_read, other_samples, rendered_unchanged, specific_claims
from tests.helpers.samples import TOOL_SAMPLES

SAMPLE = TOOL_SAMPLES / "continue.session.json"
RESUMED = TOOL_SAMPLES / "continue.resumed.session.json"
SESSION_ID = "7f87b82d-f806-4554-9483-1078f3e49f6d"
PLANTED = [
    (1, "result-prefix", None),
    (3, "tool-markup", "Read"),
    (6, "tool-error", "Read"),
    (8, "tool-error", "Bash"),
]


def findings(path: Path, capsys) -> list[tuple]:
    assert main(["scan", "--json", str(path)]) in (0, 1)
    (session,) = json.loads(capsys.readouterr().out)["sessions"]
    return [(f["turn"], f["kind"], f["tool"]) for f in session["findings"]]


def session_with(tmp_path: Path, history: list) -> Path:
    value = json.loads(SAMPLE.read_text(encoding="utf-8"))
    path = tmp_path / f"{SESSION_ID}.json"
    path.write_text(json.dumps({**value, "history": history}, indent=2, ensure_ascii=False), encoding="utf-8")
    return path


def test_the_session_is_claimed_by_continue_cli_alone():
    for path in (SAMPLE, RESUMED):
        assert specific_claims(path) == ["continue-cli"]
        assert format_read(path) == "continue-cli"
    (session,) = load_sessions(SAMPLE)
    assert (session.format, session.session_id, session.problems) == ("continue-cli", SESSION_ID, ())


def test_no_other_sample_is_claimed():
    assert all("continue-cli" not in specific_claims(path) for path in other_samples("continue-cli"))


def test_items_are_the_turns_and_results_come_from_the_calling_items_states():
    (session,) = load_sessions(SAMPLE)
    shape = [(turn.position, turn.role, len(turn.tool_calls), len(turn.tool_results)) for turn in session.turns]
    assert shape == [
        (0, USER, 0, 0),
        (1, ASSISTANT, 0, 0),
        (2, USER, 0, 0),
        (3, ASSISTANT, 0, 0),
        (4, USER, 0, 0),
        (5, ASSISTANT, 1, 0),
        (6, TOOL, 0, 1),
        (7, ASSISTANT, 1, 0),
        (8, TOOL, 0, 1),
        (9, ASSISTANT, 1, 0),
        (10, TOOL, 0, 1),
        (11, ASSISTANT, 1, 0),
        (12, TOOL, 0, 1),
        (13, ASSISTANT, 0, 0),
    ]
    by_position = {turn.position: turn for turn in session.turns}
    assert by_position[1].model == "gpt-4.1"
    (good,) = by_position[9].tool_calls
    assert (good.id, good.name, good.arguments_raw, good.arguments) == (
        "call_mock_good_read",
        "Read",
        '{"filepath":"notes.txt"}',
        {"filepath": "notes.txt"},
    )
    (answer,) = by_position[10].tool_results
    assert (answer.call_id, answer.name, answer.is_error) == ("call_mock_good_read", "Read", False)
    assert answer.content == "Content of notes.txt:\nMeeting moved to Thursday.\nBring the draft.\n"
    (broken,) = by_position[5].tool_calls
    assert (broken.arguments_raw, broken.arguments) == ("{}", {})  # as the CLI stored it: the raw text is lost
    (refused,) = by_position[6].tool_results
    assert refused.is_error and refused.content == 'Required parameter "filepath" missing for tool "Read"'


def test_the_planted_failures_are_found_and_the_good_calls_stay_clean(capsys):
    assert findings(SAMPLE, capsys) == PLANTED


def test_loading_and_rendering_unchanged_gives_the_same_bytes():
    # the CLI ends its file without a line break: written back without one
    assert rendered_unchanged(SAMPLE) == SAMPLE.read_text(encoding="utf-8")
    assert rendered_unchanged(RESUMED) == RESUMED.read_text(encoding="utf-8")


def test_fix_writes_items_as_the_cli_does_and_keeps_the_others(tmp_path, capsys):
    out = tmp_path / "fixed.json"
    assert main(["fix", str(SAMPLE), "--accept", "all", "-o", str(out)]) == 1  # the two errors are left
    assert "2 fixes applied, 2 findings left" in capsys.readouterr().out
    before = json.loads(SAMPLE.read_text(encoding="utf-8"))
    after = json.loads(out.read_text(encoding="utf-8"))
    assert {k: v for k, v in after.items() if k != "history"} == {k: v for k, v in before.items() if k != "history"}
    old, new = before["history"], after["history"]
    assert len(new) == len(old) + 1
    assert new[2:3] + new[5:] == old[2:3] + old[4:] and new[0] == old[0]
    assert new[1]["message"]["content"].startswith("You saw right through me.")
    assert {k: v for k, v in new[1]["message"].items() if k != "content"} == {
        k: v for k, v in old[1]["message"].items() if k != "content"
    }
    call = {
        "id": "call_inspector_3_0",
        "type": "function",
        "function": {"name": "Read", "arguments": '{"filepath":"notes.txt"}'},
    }
    assert new[3] == {
        "message": {"role": "assistant", "content": "", "toolCalls": [call]},
        "contextItems": [],
        "toolCallStates": [
            {
                "toolCallId": "call_inspector_3_0",
                "toolCall": call,
                "status": "done",
                "parsedArgs": {"filepath": "notes.txt"},
                "output": [{"content": NOT_EXECUTED, "name": "Tool Result", "description": "Tool execution result"}],
            }
        ],
    }
    assert new[4]["message"]["content"] == "Let me read it."
    assert findings(out, capsys) == [(8, "tool-error", "Read"), (10, "tool-error", "Bash")]


def test_the_cli_resumed_the_repaired_session_as_written(tmp_path, capsys):
    out = tmp_path / "fixed.json"
    main(["fix", str(SAMPLE), "--accept", "all", "-o", str(out)])
    capsys.readouterr()
    repaired = json.loads(out.read_text(encoding="utf-8"))["history"]
    resumed = json.loads(RESUMED.read_text(encoding="utf-8"))["history"]
    assert resumed[: len(repaired)] == repaired  # what fix writes today is what the CLI resumed
    assert [item["message"]["role"] for item in resumed[len(repaired) :]] == ["user", "assistant"]
    (session,) = load_sessions(RESUMED)
    assert session.turns[-1].text == "Yes: the notes say the meeting moved to Thursday."
    assert findings(RESUMED, capsys) == findings(out, capsys)


def test_odd_items_are_counted_and_kept_in_place(tmp_path, capsys):
    history = json.loads(SAMPLE.read_text(encoding="utf-8"))["history"]
    thinking = {"message": {"role": "thinking", "content": "hmm"}, "contextItems": []}
    future = {"message": {"role": "critic", "content": "?"}, "contextItems": []}
    path = session_with(tmp_path, history[:2] + [thinking, future, future] + history[2:])
    (session,) = load_sessions(path)
    assert session.problems == ("2 history items of role 'critic', not read as turns; kept as written",)
    assert render_sessions([session]) == path.read_text(encoding="utf-8")
    assert findings(path, capsys)[:2] == [(1, "result-prefix", None), (6, "tool-markup", "Read")]


def test_a_result_added_for_an_unanswered_call_goes_into_its_state(tmp_path, capsys):
    history = json.loads(SAMPLE.read_text(encoding="utf-8"))["history"]
    running = json.loads(json.dumps(history[8]))
    del running["toolCallStates"][0]["output"]
    running["toolCallStates"][0]["status"] = "calling"
    path = session_with(tmp_path, [*history[:8], running])
    out = tmp_path / "fixed.json"
    main(["fix", str(path), "--accept", "orphan-call", "-o", str(out)])
    capsys.readouterr()
    new = json.loads(out.read_text(encoding="utf-8"))["history"]
    assert len(new) == 9 and new[:8] == history[:8]
    (state,) = new[8]["toolCallStates"]
    assert state["status"] == "errored" and state["output"][0]["content"].startswith("No result was recorded")
    assert state["toolCall"] == running["toolCallStates"][0]["toolCall"]


def test_scan_unknowns_lists_new_keys_and_roles(tmp_path, capsys):
    history = json.loads(SAMPLE.read_text(encoding="utf-8"))["history"]
    history[1] = {**history[1], "rating": 5}
    history.append({"message": {"role": "critic", "content": "?"}, "contextItems": []})
    path = session_with(tmp_path, history)
    assert main(["scan", str(path), str(SAMPLE), "--unknowns", "--json"]) == 1
    rows = {
        (r["version"], r["record_type"], r["key"], r["count"]) for r in json.loads(capsys.readouterr().out)["unknowns"]
    }
    assert rows == {(None, "history item", "rating", 1), (None, "message/critic", None, 1)}


def test_an_item_whose_states_are_not_a_list_refuses_the_repair_in_one_line(tmp_path, capsys):
    history = json.loads(SAMPLE.read_text(encoding="utf-8"))["history"]
    odd = {**history[8], "toolCallStates": {"state": "lost"}}  # the call reads as never answered
    path = session_with(tmp_path, [*history[:8], odd])
    before = path.read_bytes()
    out = tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", "orphan-call", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a history item's toolCallStates is not a list" in err
    assert not out.exists() and path.read_bytes() == before
