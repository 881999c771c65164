"""`inspector hook claude-code`: Claude Code's `Stop` and `SubagentStop` hook.

Claude Code runs it when a reply ends, with the hook's input as JSON on stdin (`session_id`,
`transcript_path`, `hook_event_name`, `stop_hook_active`, `last_assistant_message`, and for a
subagent `agent_id` and `agent_transcript_path`). It reads what the transcript gained since its
last call (and the reply's last message from the input when the transcript does not hold it yet)
(`transcript_tail`), and when the last reply holds a fabricated result, leaked call markup, a
subagent's made-up answer passed on, a success claimed after a failed call or an action announced
and never called, it prints

    {"decision": "block", "reason": "..."}

which Claude Code gives the model as the next message, so that it makes the real call before
the person reads "saved"; or, for findings that only warn (`hook_settings`), a `systemMessage`
shown to the person. It blocks once per finding: never while `stop_hook_active` says the reply
already follows a block, and never again on a finding it has blocked on (kept in the state).

It never fails the agent: any error of its own is one line on stderr, and it exits 0.
"""

from __future__ import annotations

import json
from typing import IO, TYPE_CHECKING, Any

from inspector.hooks.hook_settings import load_settings
from inspector.hooks.hook_state import HookState, load_state, save_state, state_path
from inspector.hooks.transcript_tail import read_tail
from inspector.hooks.verdict import one_line, run_hook, verdict

if TYPE_CHECKING:
    from inspector.model import Finding

STOP_EVENTS = ("Stop", "SubagentStop")


def run_stop_hook(stdin: IO[bytes], stdout: IO[str], stderr: IO[str]) -> int:
    """Run the hook on the input read from `stdin`; the decision, if any, goes to `stdout`. Always 0."""
    return run_hook(_answer, stdin, stdout, stderr)


def _answer(hook_input: Any, stderr: IO[str]) -> dict[str, str]:
    """The hook's output for one call: a block, a note to the person, or nothing."""
    if not isinstance(hook_input, dict) or hook_input.get("hook_event_name") not in STOP_EVENTS:
        raise ValueError("not the input of a Stop or SubagentStop hook")
    session_id = hook_input.get("session_id")
    subagent = hook_input.get("hook_event_name") == "SubagentStop"
    agent_id = hook_input.get("agent_id") if subagent else None
    agent = agent_id if isinstance(agent_id, str) else None
    transcript = (subagent and hook_input.get("agent_transcript_path")) or hook_input.get("transcript_path")
    if not isinstance(session_id, str) or not isinstance(transcript, str) or not transcript:
        raise ValueError("the input names no session_id or transcript_path")
    settings, ignored = load_settings()
    if ignored:
        stderr.write(f"inspector hook: {one_line(ignored)}\n")
    where = state_path(session_id, agent)
    state = load_state(where)
    tail = read_tail(transcript, state)
    lines = _with_last_message(tail.data, hook_input.get("last_assistant_message"), session_id, subagent)
    findings = _findings(transcript, lines, settings.checked(), agent, subagent)
    retry = hook_input.get("stop_hook_active") is True  # this reply follows a block: only tell the person
    answer, blocked = verdict(findings, state.blocked, settings, retry)
    save_state(where, HookState(transcript, tail.end, tail.head, blocked))
    return answer


def _with_last_message(lines: bytes, last: Any, session_id: str, subagent: bool) -> bytes:
    """The new lines, with the reply's last message added as an assistant event when Claude Code
    gave it (`last_assistant_message`) and the transcript does not hold it yet (it is written
    while the hook may already run). Only read: the transcript and the offset are not changed."""
    if not isinstance(last, str) or not last.strip():
        return lines
    from inspector.hooks.screen import reply_texts

    if any(last.strip() in text for text in reply_texts(lines, subagent)):
        return lines
    event = {
        "type": "assistant",
        "isSidechain": subagent,
        "uuid": "last_assistant_message",
        "parentUuid": None,
        "sessionId": session_id,
        "message": {"role": "assistant", "content": [{"type": "text", "text": last}]},
    }
    return lines + json.dumps(event).encode() + b"\n"


def _findings(
    transcript: str, lines: bytes, kinds: tuple[str, ...], agent_id: str | None, subagent: bool
) -> list[Finding]:
    """The findings of `kinds` in the last reply these lines hold (the main thread's, or with
    `subagent` the subagent's); the readers and detectors are imported only when the quick look
    (`screen`) says there may be some."""
    from inspector.hooks.screen import may_hold, reply_start

    if not lines or not kinds or not may_hold(lines, kinds, subagent):
        return []
    from inspector.hooks.reply_findings import reply_findings

    return reply_findings(transcript, lines[reply_start(lines, subagent) :], kinds, agent_id)
