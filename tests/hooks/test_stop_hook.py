"""`inspector hook claude-code` blocks a reply that fabricates its work, once, with a reason for
the model, reads only what the transcript gained since its last call, and stays silent on a
clean reply."""

from __future__ import annotations

import json

from tests.helpers.samples import TOOL_SAMPLES
from tests.hooks.helpers import (
    FAKE_RESULT_END,
    MARKUP_END,
    SAMPLE_LINES,
    run_hook,
    stop_input,
    write_lines,
)

# A session of the real Claude Code whose subagent made up its answer (`sessions/generate/`)
RELAYED = TOOL_SAMPLES / "claude-code-subagent" / "96771fa5-273c-4ee7-9ace-b7f1e823acb7.jsonl"
# The subagent's own transcript in a run of the hook inside the real Claude Code: asked to read a file,
# it wrote a fake `Read` result, `{"file_path": "notes.txt", "content": <made up>}`, and no call.
SUBAGENT_FAKING_A_READ = TOOL_SAMPLES / "hooks" / "claude-code-hook-relayed.agent.jsonl"


def test_a_reply_opening_with_a_fake_result_is_blocked_with_a_reason_for_the_model(tmp_path, monkeypatch, capsys):
    transcript = write_lines(tmp_path / "session.jsonl", FAKE_RESULT_END)
    code, decision, err = run_hook(monkeypatch, capsys, stop_input(transcript))
    assert (code, err) == (0, "")
    assert decision is not None and decision["decision"] == "block"
    assert decision["reason"].startswith("Your reply contains a tool result you wrote yourself; no tool ran.")
    assert "(result-prefix: Reply starts with an object that looks like a fake tool result" in decision["reason"]
    assert "Call the tool you meant now as a real tool call" in decision["reason"]


def test_a_made_up_read_is_not_answered_by_dictating_a_write_of_the_made_up_text(tmp_path, monkeypatch, capsys):
    """The object holds both parameters of the session's `Write` and is what its `Read` returns:
    told to call Write with it, the model would write its invention over the person's file."""
    lines = SUBAGENT_FAKING_A_READ.read_bytes().splitlines(keepends=True)
    faked = next(number for number, line in enumerate(lines) if json.loads(line)["type"] == "assistant")
    transcript = tmp_path / "agent.jsonl"
    transcript.write_bytes(b"".join(lines[: faked + 1]))
    hook_input = stop_input(
        tmp_path / "session.jsonl",
        hook_event_name="SubagentStop",
        agent_id=json.loads(lines[faked])["agentId"],
        agent_transcript_path=str(transcript),
    )
    code, decision, err = run_hook(monkeypatch, capsys, hook_input)
    assert (code, err) == (0, "") and decision is not None and decision["decision"] == "block"
    reason = decision["reason"]
    assert "it fits Write, and just as well what Read returns, with its content" in reason
    assert "Call the tool you meant now as a real tool call" in reason
    assert "Call Write" not in reason and "Bring the draft" not in reason


def test_a_line_nested_too_deeply_to_read_is_passed_over_and_the_reply_still_checked(tmp_path, monkeypatch, capsys):
    transcript = tmp_path / "session.jsonl"
    transcript.write_bytes(SAMPLE_LINES[0] + b"[" * 100_000 + b"]" * 100_000 + b"\n")
    write_lines(transcript, FAKE_RESULT_END, 1)
    code, decision, err = run_hook(monkeypatch, capsys, stop_input(transcript))
    assert (code, err) == (0, "")
    assert decision is not None and decision["decision"] == "block"


def test_leaked_call_markup_is_blocked_naming_the_call_to_make(tmp_path, monkeypatch, capsys):
    transcript = write_lines(tmp_path / "session.jsonl", MARKUP_END)
    code, decision, _ = run_hook(monkeypatch, capsys, stop_input(transcript))
    assert code == 0 and decision is not None
    assert decision["decision"] == "block"
    assert 'Make the call to Read with {"file_path": "notes.txt"} now as a real tool call' in decision["reason"]
    assert "tool result you wrote yourself" not in decision["reason"]  # the earlier reply is not this one's


def test_each_call_reads_only_what_is_new_and_blocks_each_reply_once(tmp_path, monkeypatch, capsys):
    transcript = write_lines(tmp_path / "session.jsonl", FAKE_RESULT_END)
    assert run_hook(monkeypatch, capsys, stop_input(transcript))[1]["decision"] == "block"
    assert run_hook(monkeypatch, capsys, stop_input(transcript))[1] is None  # nothing new: silent
    write_lines(transcript, MARKUP_END, start=FAKE_RESULT_END)
    decision = run_hook(monkeypatch, capsys, stop_input(transcript))[1]
    assert "printed a tool call as text" in decision["reason"]
    assert "wrote yourself" not in decision["reason"]
    write_lines(transcript, len(SAMPLE_LINES), start=MARKUP_END)  # the real calls, and a clean answer
    assert run_hook(monkeypatch, capsys, stop_input(transcript))[1] is None


def test_the_last_message_given_in_the_input_is_checked_when_the_transcript_does_not_hold_it_yet(
    tmp_path, monkeypatch, capsys
):
    (fake_result,) = json.loads(SAMPLE_LINES[FAKE_RESULT_END - 1])["message"]["content"]
    transcript = write_lines(tmp_path / "session.jsonl", FAKE_RESULT_END - 1)  # the reply not written yet
    hook_input = stop_input(transcript, last_assistant_message=fake_result["text"])
    assert run_hook(monkeypatch, capsys, hook_input)[1]["decision"] == "block"
    write_lines(transcript, FAKE_RESULT_END, start=FAKE_RESULT_END - 1)  # written now: it was checked already
    assert run_hook(monkeypatch, capsys, stop_input(transcript))[1] is None


def test_a_reply_after_a_block_is_never_blocked_again(tmp_path, monkeypatch, capsys):
    transcript = write_lines(tmp_path / "session.jsonl", FAKE_RESULT_END)
    code, decision, _ = run_hook(monkeypatch, capsys, stop_input(transcript, active=True))
    assert code == 0 and "decision" not in decision
    assert decision["systemMessage"].startswith("inspector: the last reply may not be what it seems (result-prefix:")


def test_a_transcript_rewritten_is_read_again_but_a_finding_blocked_on_is_not_blocked_twice(
    tmp_path, monkeypatch, capsys
):
    transcript = write_lines(tmp_path / "session.jsonl", FAKE_RESULT_END)
    assert run_hook(monkeypatch, capsys, stop_input(transcript))[1]["decision"] == "block"
    transcript.write_bytes(b"".join(SAMPLE_LINES[1:FAKE_RESULT_END]))  # the head changed: its first line is gone
    assert run_hook(monkeypatch, capsys, stop_input(transcript))[1] is None
    write_lines(transcript, MARKUP_END)  # rewritten whole, longer: the new finding blocks
    assert "printed a tool call" in run_hook(monkeypatch, capsys, stop_input(transcript))[1]["reason"]


def test_a_transcript_cut_below_the_offset_is_read_again(tmp_path, monkeypatch, capsys):
    transcript = write_lines(tmp_path / "session.jsonl", MARKUP_END)
    assert run_hook(monkeypatch, capsys, stop_input(transcript))[1]["decision"] == "block"
    write_lines(transcript, FAKE_RESULT_END)  # cut back (a rewind): the fake result's reply is last again
    decision = run_hook(monkeypatch, capsys, stop_input(transcript))[1]
    assert "wrote yourself" in decision["reason"]


def test_a_long_transcript_is_read_from_its_end_only(tmp_path, monkeypatch, capsys):
    """A first call on a large transcript reads its last window, not the whole file: a fake result
    far back is not this reply's, and the reply at the end is."""
    transcript = write_lines(tmp_path / "session.jsonl", FAKE_RESULT_END)
    with transcript.open("ab") as file:
        file.write(b'{"type":"progress","data":"' + b"x" * (5 * 2**20) + b'"}\n')
        file.write(b"".join(SAMPLE_LINES[MARKUP_END:]))
    assert run_hook(monkeypatch, capsys, stop_input(transcript))[1] is None


def test_a_subagent_s_own_transcript_is_read_on_subagent_stop(tmp_path, monkeypatch, capsys):
    transcript = write_lines(tmp_path / "session.jsonl", len(SAMPLE_LINES))  # the main thread: clean
    agent = tmp_path / "agent-a1.jsonl"  # a subagent's own transcript: its events marked as its thread's
    agent.write_text("".join(json.dumps({**json.loads(line), "isSidechain": True, "agentId": "a1"}) + "\n" for line in SAMPLE_LINES[:FAKE_RESULT_END]))  # fmt: skip
    hook_input = stop_input(
        transcript, hook_event_name="SubagentStop", agent_id="a1", agent_transcript_path=str(agent), agent_type="x"
    )
    assert run_hook(monkeypatch, capsys, hook_input)[1]["decision"] == "block"
    assert run_hook(monkeypatch, capsys, stop_input(transcript))[1] is None  # the main thread's own state


def test_a_subagent_s_events_in_the_main_transcript_are_not_the_main_reply_s(tmp_path, monkeypatch, capsys):
    """A subagent's prompt written after the main thread's reply does not hide that reply."""
    transcript = write_lines(tmp_path / "session.jsonl", FAKE_RESULT_END)
    prompt = {**json.loads(SAMPLE_LINES[MARKUP_END - 5]), "isSidechain": True, "agentId": "a1"}
    with transcript.open("a") as file:
        file.write(json.dumps(prompt) + "\n")
    assert run_hook(monkeypatch, capsys, stop_input(transcript))[1]["decision"] == "block"


def test_a_clean_reply_gets_nothing(tmp_path, monkeypatch, capsys):
    transcript = write_lines(tmp_path / "session.jsonl", len(SAMPLE_LINES))
    assert run_hook(monkeypatch, capsys, stop_input(transcript)) == (0, None, "")


def test_an_input_that_is_not_json_is_one_line_and_exit_0(tmp_path, monkeypatch, capsys):
    code, decision, err = run_hook(monkeypatch, capsys, b"{not json")
    assert (code, decision, err) == (
        0,
        None,
        "inspector hook: the hook's input is not JSON (Expecting property name enclosed in double quotes "
        "at line 1 column 2)\n",
    )


def test_another_event_is_one_line_and_exit_0(tmp_path, monkeypatch, capsys):
    code, decision, err = run_hook(monkeypatch, capsys, {"hook_event_name": "PreToolUse", "session_id": "s"})
    assert (code, decision, err) == (0, None, "inspector hook: not the input of a Stop or SubagentStop hook\n")


def test_a_transcript_not_there_is_one_line_and_exit_0(tmp_path, monkeypatch, capsys):
    code, decision, err = run_hook(monkeypatch, capsys, stop_input(tmp_path / "gone.jsonl"))
    assert (code, decision) == (0, None)
    assert err == f"inspector hook: {tmp_path / 'gone.jsonl'}: No such file or directory\n"


def test_a_state_folder_that_cannot_be_written_is_one_line_and_exit_0(tmp_path, monkeypatch, capsys):
    transcript = write_lines(tmp_path / "session.jsonl", FAKE_RESULT_END)
    (tmp_path / "state").write_text("a file where the folder goes")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    code, decision, err = run_hook(monkeypatch, capsys, stop_input(transcript))
    assert (code, decision) == (0, None)
    assert err.startswith("inspector hook: ") and err.count("\n") == 1


def test_a_transcript_that_is_no_claude_code_transcript_gets_nothing(tmp_path, monkeypatch, capsys):
    transcript = tmp_path / "session.jsonl"
    transcript.write_bytes(
        b'{"type": "assistant", "message": {"content": "<tool_call>{\\"name\\": \\"x\\"}</tool_call>"}}\n'
    )
    assert run_hook(monkeypatch, capsys, stop_input(transcript)) == (0, None, "")


def test_a_failure_of_the_hook_s_own_is_one_line_and_exit_0(tmp_path, monkeypatch, capsys):
    def broken(*args):
        raise RuntimeError("a detector broke")

    monkeypatch.setattr("inspector.hooks.reply_findings.reply_findings", broken)
    transcript = write_lines(tmp_path / "session.jsonl", FAKE_RESULT_END)
    assert run_hook(monkeypatch, capsys, stop_input(transcript)) == (0, None, "inspector hook: a detector broke\n")


def test_a_subagent_s_made_up_answer_passed_on_is_blocked_once_with_a_reason_for_the_model(
    tmp_path, monkeypatch, capsys
):
    """Claude Code 2.1.332 ran the subagent in the background: its answer, which opens with a fake
    `Read` result, came back in a notification (a user message that is no prompt of the person's),
    and the main agent passed it on."""
    lines = RELAYED.read_bytes().splitlines(keepends=True)
    notified = next(number for number, line in enumerate(lines) if b"<task-notification>" in line)
    transcript = tmp_path / "session.jsonl"
    transcript.write_bytes(b"".join(lines[:notified]))  # the reply given while the subagent ran
    assert run_hook(monkeypatch, capsys, stop_input(transcript))[1] is None
    transcript.write_bytes(b"".join(lines))  # its answer came back, and the reply on it
    code, decision, err = run_hook(monkeypatch, capsys, stop_input(transcript))
    assert (code, err) == (0, "") and decision is not None and decision["decision"] == "block"
    assert decision["reason"].startswith(
        "The answer a subagent handed back to you opens with a tool result it wrote itself; it ran no tool."
    )
    assert "(relayed-fake-result: The answer the Agent subagent handed back opens with an object" in decision["reason"]
    assert "do the work yourself with real tool calls" in decision["reason"]
    assert run_hook(monkeypatch, capsys, stop_input(transcript))[1] is None  # blocked once: nothing new
    # read whole by a call that follows a block (another session's state): the person is told, no block
    retried = run_hook(monkeypatch, capsys, stop_input(transcript, active=True, session_id="retried"))[1]
    assert retried is not None and "decision" not in retried
    assert retried["systemMessage"].startswith(
        "inspector: the last reply may not be what it seems (relayed-fake-result: "
    )
