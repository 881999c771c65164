"""Codex CLI rollouts: the rollout Codex 0.169 wrote (`sessions/codex.rollout.jsonl`,
see `sessions/generate/README.md` for what is planted at which line), read into turns and
written back byte for byte where nothing changed."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.model import ASSISTANT, SYSTEM, TOOL, USER
from inspector.sources import FORMATS, load_sessions, render_sessions
from inspector.sources.files.document import read_document
from tests.helpers.samples import TOOL_SAMPLES
from tests.helpers.scanning import finding_triples

SAMPLES = TOOL_SAMPLES
ROLLOUT = SAMPLES / "codex.rollout.jsonl"
SESSION_ID = "01a20b89-3790-7752-a0ad-e1b340dd9094"
PLANTED = [
    (10, "result-prefix", None),
    (20, "tool-markup", "exec_command"),
    (31, "malformed-arguments", "exec_command"),
    (35, "malformed-arguments", "exec_command"),
]


def lines_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


def rollout_with(tmp_path: Path, lines: list[str], name: str = "rollout.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(lines), encoding="utf-8")
    return path


def item_line(payload: dict, stamp: str = "2026-11-24T03:11:12.000Z") -> str:
    return json.dumps({"timestamp": stamp, "type": "response_item", "payload": payload}) + "\n"


def test_the_rollout_is_codex_and_no_other_format_claims_it():
    document = read_document(ROLLOUT)
    assert [name for name, file_format in FORMATS.items() if file_format.claims(document)] == ["codex"]
    (session,) = load_sessions(ROLLOUT)
    assert (session.format, session.session_id, session.problems) == ("codex", SESSION_ID, ())


@pytest.mark.parametrize(
    ("name", "own_format"), [("claude-code.jsonl", "claude-code"), ("gemini-cli.session.jsonl", "gemini-cli")]
)
def test_other_tools_json_lines_are_not_claimed(name, own_format):
    document = read_document(SAMPLES / name)
    assert not FORMATS["codex"].claims(document)
    assert not FORMATS["openai-responses"].claims(document)
    assert {session.format for session in load_sessions(SAMPLES / name)} == {own_format}


def test_response_items_are_the_turns_and_injected_context_is_system():
    (session,) = load_sessions(ROLLOUT)
    by_line = {turn.position + 1: turn for turn in session.turns}
    assert sorted(by_line) == [3, 4, 8, 11, 18, 21, 28, 31, 32, 34, 36, 38, 41, 42, 45, 47, 50, 53]
    assert by_line[3].role == SYSTEM and by_line[3].text.startswith("<skills_instructions>")  # developer
    assert by_line[4].role == SYSTEM and by_line[4].text.startswith("<environment_context>")  # injected as user
    assert [by_line[n].role for n in (8, 18, 28)] == [USER] * 3
    assert by_line[11].role == ASSISTANT and by_line[11].id == "msg_mock_00"
    (cut,) = by_line[32].tool_calls
    assert (cut.id, cut.name, cut.arguments_raw, cut.arguments) == (
        "call_mock_broken_cut",
        "exec_command",
        '{"cmd": "cat notes.txt"',
        None,
    )  # kept verbatim, broken
    (answer,) = by_line[34].tool_results
    assert by_line[34].role == TOOL and (answer.call_id, answer.name) == ("call_mock_broken_cut", "exec_command")
    assert answer.content.startswith("failed to parse function arguments: EOF")
    assert by_line[42].tool_calls[0].arguments == {"cmd": "cat notes.txt"}


def test_the_planted_failures_are_found_and_the_good_calls_stay_clean():
    assert finding_triples(ROLLOUT) == PLANTED


def test_loading_and_rendering_unchanged_gives_the_same_bytes(tmp_path):
    assert render_sessions(load_sessions(ROLLOUT)) == ROLLOUT.read_text(encoding="utf-8")
    crlf = rollout_with(tmp_path, [line.replace("\n", "\r\n") for line in lines_of(ROLLOUT)])
    assert render_sessions(load_sessions(crlf)).encode() == crlf.read_bytes()


def test_fix_repairs_the_items_and_keeps_every_other_line_byte_for_byte(tmp_path):
    out = tmp_path / "fixed.jsonl"
    assert main(["fix", str(ROLLOUT), "--accept", "all", "-o", str(out)]) == 0
    before, after = lines_of(ROLLOUT), lines_of(out)
    changed = {11, 21, 32, 36} | {10, 14, 20, 24}  # the items, and Codex's events showing the two replies
    untouched = [line for number, line in enumerate(before, 1) if number not in changed]
    assert [line for line in after if line in untouched] == untouched
    assert len(after) == len(before) + 2
    records = [json.loads(line) for line in after]
    recovered, result, fixed = records[20:23]
    assert recovered["payload"] == {
        "type": "function_call",
        "call_id": "call_inspector_20_0",
        "name": "exec_command",
        "arguments": '{"cmd": "cat notes.txt"}',
    }
    assert result["payload"]["type"] == "function_call_output" and result["payload"]["call_id"] == "call_inspector_20_0"
    assert "not executed" in result["payload"]["output"]
    assert recovered["timestamp"] == fixed["timestamp"] == json.loads(before[20])["timestamp"]
    assert fixed["payload"]["content"][0]["text"] == "Let me read it."
    assert {k: v for k, v in fixed.items() if k != "payload"} == {
        k: v for k, v in json.loads(before[20]).items() if k != "payload"
    }  # ordinal, metadata kept
    assert records[33]["payload"]["arguments"] == '{"cmd": "cat notes.txt"}'
    assert records[37]["payload"]["arguments"] == '{"cmd": "echo hi"}'
    assert records[10]["payload"]["content"][0]["text"].startswith("You saw right through me.")
    assert finding_triples(out) == []
    (session,) = load_sessions(out)
    assert session.format == "codex" and session.problems == ()
    shown = [json.loads(after[number])["payload"] for number in (9, 13, 19, 25)]  # the events, moved by 2 after 20
    assert [event["item"]["content"][0]["text"] for event in shown[::2]] == [
        records[10]["payload"]["content"][0]["text"],
        "Let me read it.",
    ]
    assert [event["last_agent_message"] for event in shown[1::2]] == [
        records[10]["payload"]["content"][0]["text"],
        "Let me read it.",
    ]
    assert "{success: true" not in out.read_text(encoding="utf-8")
    new = [line for line in after if line not in untouched]  # written as Codex writes its lines
    assert len(new) == 10
    assert all(json.dumps(json.loads(line), separators=(",", ":"), ensure_ascii=False) == line.rstrip() for line in new)


def test_a_cut_last_line_is_read_up_to_and_written_back(tmp_path):
    lines = lines_of(ROLLOUT)
    cut = rollout_with(tmp_path, lines[:53] + [lines[53][:120]])
    (session,) = load_sessions(cut)
    assert session.problems == (
        "line 54: the last line is cut off (Unterminated string at column 105), not read; written back as it was",
    )
    assert session.turns[-1].position == 52
    assert render_sessions([session]) == cut.read_text(encoding="utf-8")
    out = tmp_path / "fixed.jsonl"
    assert main(["fix", str(cut), "--accept", "all", "-o", str(out)]) == 0
    assert lines_of(out)[-1] == lines[53][:120]
    assert finding_triples(out) == []


def test_unknown_lines_and_items_are_counted_and_kept_in_place(tmp_path):
    lines = lines_of(ROLLOUT)
    future = json.dumps({"timestamp": "t", "type": "future_thing", "payload": {}}) + "\n"
    search = item_line({"type": "web_search_call", "status": "completed", "action": {"type": "search", "query": "x"}})
    reasoning = item_line({"type": "reasoning", "summary": [], "encrypted_content": "gAAA"})
    path = rollout_with(tmp_path, lines[:19] + [future, future, search, reasoning] + lines[19:])
    (session,) = load_sessions(path)
    assert session.problems == (
        "2 lines of type 'future_thing' not read as turns",
        "1 item of type 'web_search_call' not read as a turn",
    )
    assert finding_triples(path) == [
        (10, "result-prefix", None),
        (24, "tool-markup", "exec_command"),
        (35, "malformed-arguments", "exec_command"),
        (39, "malformed-arguments", "exec_command"),
    ]
    assert render_sessions([session]) == path.read_text(encoding="utf-8")
    out = tmp_path / "fixed.jsonl"
    main(["fix", str(path), "--accept", "tool-markup", "-o", str(out)])
    after = lines_of(out)
    # the recovered call goes before the reasoning that leads into the fixed message, whose output it was
    assert after[19:21] == [future, future] and after[21] == search
    assert [json.loads(line)["payload"]["type"] for line in after[22:27]] == [
        "function_call",
        "function_call_output",
        "reasoning",
        "item_completed",
        "message",
    ]
    assert after[24] == reasoning
    shown, read = json.loads(after[25]), json.loads(lines[19])  # Codex's event of the reply: its repaired text
    assert shown["payload"]["item"]["content"] == [{"type": "Text", "text": "Let me read it."}]
    shown["payload"]["item"]["content"] = read["payload"]["item"]["content"]
    assert shown == read


def test_a_reply_that_was_only_markup_becomes_the_call(tmp_path):
    lines = lines_of(ROLLOUT)
    only = json.loads(lines[20])
    only["payload"]["content"][0]["text"] = '<tool_call>{"name":"exec_command","arguments":{"cmd":"ls"}}</tool_call>'
    path = rollout_with(tmp_path, lines[:20] + [json.dumps(only) + "\n"] + lines[21:])
    out = tmp_path / "fixed.jsonl"
    main(["fix", str(path), "--accept", "tool-markup", "-o", str(out)])
    after = lines_of(out)
    assert json.loads(after[20]) == {
        "timestamp": only["timestamp"],
        "type": "response_item",
        "payload": {
            "type": "function_call",
            "call_id": "call_inspector_20_0",
            "name": "exec_command",
            "arguments": '{"cmd": "ls"}',
        },
    }
    # its result goes before the next item read (the next user message), after the lines of other kinds
    assert after[21:27] == lines[21:27] and after[28:] == lines[27:]
    assert json.loads(after[27])["payload"]["type"] == "function_call_output"
    assert finding_triples(out) == [
        (10, "result-prefix", None),
        (32, "malformed-arguments", "exec_command"),
        (36, "malformed-arguments", "exec_command"),
    ]


def test_an_unanswered_last_call_gets_its_result_just_after_it(tmp_path):
    lines = lines_of(ROLLOUT)
    path = rollout_with(tmp_path, lines[:47])  # ends with the event after the call `call_mock_good_echo`
    assert finding_triples(path) == PLANTED + [(46, "orphan-call", "exec_command")]
    out = tmp_path / "fixed.jsonl"
    main(["fix", str(path), "--accept", "orphan-call", "-o", str(out)])
    after = lines_of(out)
    answer = json.loads(after[47])["payload"]
    assert after[:47] == lines[:47] and len(after) == 48
    assert (answer["type"], answer["call_id"]) == ("function_call_output", "call_mock_good_echo")


def event_line(payload: dict) -> str:
    return json.dumps({"timestamp": "2026-11-24T03:11:13.000Z", "type": "event_msg", "payload": payload}) + "\n"


def test_only_the_copies_of_a_repaired_reply_in_codexs_events_take_its_repaired_text(tmp_path):
    fake = '{"success": true, "saved": "note"} Saved your note.'
    reply = {"type": "message", "id": "msg_1", "role": "assistant", "content": [{"type": "output_text", "text": fake}]}
    other = "A reply the repair does not touch."
    shown = [
        event_line({"type": "agent_message", "message": fake}),  # an older rollout's copy
        event_line({"type": "agent_message", "message": other}),
        event_line(
            {
                "type": "item_completed",
                "item": {"type": "AgentMessage", "id": "msg_1", "content": [{"type": "Text", "text": "changed since"}]},
            }
        ),
        # a copy whose part lost its text (another program, a half-written line): left as it is
        event_line(
            {"type": "item_completed", "item": {"type": "AgentMessage", "id": "msg_1", "content": [{"type": "Text"}]}}
        ),
        event_line({"type": "task_complete", "last_agent_message": fake}),
    ]
    user = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Save a note."}]}
    lines = lines_of(ROLLOUT)[:1] + [item_line(user), item_line(reply), *shown]
    path = rollout_with(tmp_path, lines)
    out = tmp_path / "fixed.jsonl"
    assert main(["fix", str(path), "--accept", "result-prefix", "-o", str(out)]) == 0
    after = lines_of(out)
    assert json.loads(after[2])["payload"]["content"][0]["text"] == "Saved your note."
    assert json.loads(after[3])["payload"] == {"type": "agent_message", "message": "Saved your note."}
    assert after[4:7] == shown[1:4]  # another reply's copy, and copies whose text is not the reply's as read
    assert json.loads(after[7])["payload"] == {"type": "task_complete", "last_agent_message": "Saved your note."}


def test_other_codex_shapes(tmp_path):
    lines = lines_of(ROLLOUT)[:2]
    path = rollout_with(
        tmp_path,
        lines
        + [
            item_line(
                {
                    "type": "message",
                    "role": "user",
                    "content": [
                        {
                            "type": "input_text",
                            "text": "# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>be brief</INSTRUCTIONS>",
                        }
                    ],
                }
            ),
            item_line(
                {
                    "type": "custom_tool_call",
                    "status": "completed",
                    "call_id": "c1",
                    "name": "apply_patch",
                    "input": "*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch",
                }
            ),
            item_line({"type": "custom_tool_call_output", "call_id": "c1", "output": "Done!"}),
            item_line(
                {
                    "type": "local_shell_call",
                    "call_id": "c2",
                    "status": "completed",
                    "action": {"type": "exec", "command": ["ls"]},
                }
            ),
            item_line(
                {"type": "function_call_output", "call_id": "c2", "output": {"content": "denied", "success": False}}
            ),
        ],
    )
    (session,) = load_sessions(path)
    context, patch, patched, shell, denied = session.turns
    assert context.role == SYSTEM
    assert patch.tool_calls[0].arguments == {"input": "*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch"}
    assert patched.tool_results[0].name == "apply_patch"
    assert (shell.tool_calls[0].name, shell.tool_calls[0].arguments) == (
        "local_shell",
        {"type": "exec", "command": ["ls"]},
    )
    assert denied.tool_results[0].content == "denied" and denied.tool_results[0].is_error
    assert [kind for _, kind, _ in finding_triples(path)] == ["tool-error"]


def test_renamed_and_repaired_calls_of_every_kind_are_written_where_they_are_kept(tmp_path):
    path = rollout_with(
        tmp_path,
        lines_of(ROLLOUT)[:1]
        + [
            item_line({"type": "custom_tool_call", "call_id": "c1", "name": "apply_patch", "input": "*** Begin Patch"}),
            item_line(
                {
                    "type": "local_shell_call",
                    "call_id": "c2",
                    "status": "completed",
                    "action": {"type": "exec", "command": ["ls"]},
                }
            ),
            item_line({"type": "local_shell_call", "call_id": "c3", "status": "completed", "action": {"type": "exec"}}),
        ],
    )
    (session,) = load_sessions(path)
    patch, shell, other = session.turns
    repaired = [
        replace(
            patch, tool_calls=(replace(patch.tool_calls[0], name="patch", arguments_raw={"input": "x"}),), edited=True
        ),
        replace(shell, tool_calls=(replace(shell.tool_calls[0], name="shell"),), edited=True),
        replace(
            other,
            tool_calls=(replace(other.tool_calls[0], arguments_raw={"type": "exec", "command": []}),),
            edited=True,
        ),
    ]
    written = [
        json.loads(line)["payload"]
        for line in render_sessions([replace(session, turns=tuple(repaired))]).splitlines()[1:]
    ]
    assert written == [
        {"type": "custom_tool_call", "call_id": "c1", "name": "patch", "input": "x"},
        {"type": "function_call", "call_id": "c2", "name": "shell", "arguments": '{"type": "exec", "command": ["ls"]}'},
        {"type": "local_shell_call", "call_id": "c3", "status": "completed", "action": {"type": "exec", "command": []}},
    ]
