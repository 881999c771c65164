"""The hook of the agents whose reply ends with a command hook given the session's chat file:
Gemini CLI's `AfterAgent` (`inspector hook gemini-cli`), Qwen Code's `Stop` and `SubagentStop`
(`inspector hook qwen-code`: a subagent's records are marked `isSidechain` with its `agentId`, in
the chat file or, in the background, a file of its own, `agent_transcript_path`; `SubagentStop`
reads the turns of the subagent its `agent_id` names, its state kept apart, and leaves one it
does not name; `Stop` reads the main thread's alone) and Codex's `Stop` and `SubagentStop` (`inspector hook codex`: a
subagent's reply is read from its own rollout, `agent_transcript_path`, its state kept apart
under its `agent_id`; a subagent Codex gives no rollout for is left), and GitHub Copilot CLI's
`Stop` (`inspector hook copilot-cli`: the event named as Claude Code names it, whose input has
Claude Code's fields; `transcript_path` is the session's `events.jsonl`, which Copilot CLI writes
a moment after it starts the hook: the hook waits for it, `transcript_wait`).

The agent runs it when a reply ends, with the hook's input as JSON on stdin (`session_id`,
`transcript_path`: the session's JSON Lines chat file, `hook_event_name`, `stop_hook_active`,
and the reply's text: Gemini CLI's `prompt_response`, the others' `last_assistant_message`). It
reads what the chat file gained since its last call (`transcript_tail`, the same offset and head
checks as Claude Code's hook, its state kept under the agent's name), reads those lines with the
agent's format reader (Gemini CLI's and Codex's after the file's first line, the session's
header), and runs
the detectors on the turns after the last prompt. When the reply holds a fabricated result,
leaked call markup, a success claimed after a failed call or an action announced and never
called, it prints

    {"decision": "block", "reason": "..."}

and the agent sends the reason to the model as the next message, so that it makes the real
call; findings that only warn go to the person as a `systemMessage`. It blocks once per finding:
never while `stop_hook_active` says the reply follows a block, never again on a finding it has
blocked on. It never fails the agent: an error of its own is one line on stderr, and it exits 0.
"""

from __future__ import annotations

from functools import partial
from typing import IO, TYPE_CHECKING, Any

from inspector.hooks.hook_settings import load_settings
from inspector.hooks.hook_state import HookState, load_state, save_state, state_path
from inspector.hooks.transcript_tail import read_tail
from inspector.hooks.verdict import one_line, run_hook, verdict

if TYPE_CHECKING:
    from inspector.model import Finding, Session


class ChatFileAgent:
    """An agent this hook runs in: its name (the state folder's, the format's), the events it
    runs the hook on, the module of `inspector.sources.formats` that reads its chat file, whether
    a piece of that file is read after the file's first line, whether a subagent's reply is in a
    chat file of its own (`agent_transcript_path` on `SubagentStop`), and whether the agent writes
    the reply's events only after it starts the hook (`late`: `transcript_wait`)."""

    __slots__ = ("events", "header", "late", "name", "reader", "subagent_files")

    def __init__(
        self,
        name: str,
        events: tuple[str, ...],
        reader: str,
        header: bool,
        subagent_files: bool = False,
        late: bool = False,
    ) -> None:
        self.name = name
        self.events = events
        self.reader = reader
        self.header = header
        self.subagent_files = subagent_files
        self.late = late


GEMINI_CLI = ChatFileAgent("gemini-cli", ("AfterAgent",), "gemini_cli", header=True)
QWEN_CODE = ChatFileAgent("qwen-code", ("Stop", "SubagentStop"), "qwen_code", header=False)
CODEX = ChatFileAgent("codex", ("Stop", "SubagentStop"), "codex", header=True, subagent_files=True)
COPILOT_CLI = ChatFileAgent("copilot-cli", ("Stop",), "copilot_cli", header=True, late=True)
AGENTS = {agent.name: agent for agent in (GEMINI_CLI, QWEN_CODE, CODEX, COPILOT_CLI)}
HEADER_BYTES = 2**20  # the longest first line read as a chat file's header (Codex's holds its instructions)


def run_chat_file_hook(agent: str, stdin: IO[bytes], stdout: IO[str], stderr: IO[str]) -> int:
    """Run `agent`'s hook on the input read from `stdin`; the decision, if any, goes to `stdout`. Always 0."""
    return run_hook(partial(_answer, AGENTS[agent]), stdin, stdout, stderr)


def _answer(agent: ChatFileAgent, hook_input: Any, stderr: IO[str]) -> dict[str, str]:
    """The hook's output for one call: a block, a note to the person, or nothing."""
    if not isinstance(hook_input, dict) or hook_input.get("hook_event_name") not in agent.events:
        raise ValueError(f"not the input of a {' or '.join(agent.events)} hook")
    session_id = hook_input.get("session_id")
    transcript = hook_input.get("transcript_path")
    agent_id = None
    if hook_input.get("hook_event_name") == "SubagentStop":
        agent_id, own_file = hook_input.get("agent_id"), hook_input.get("agent_transcript_path")
        if not isinstance(agent_id, str) or not agent_id:
            return {}  # a subagent the input does not name: no turns to tell as its own
        if isinstance(own_file, str) and own_file:
            transcript = own_file
        elif agent.subagent_files:
            return {}  # a subagent whose replies are kept in no file of its own: nothing to read
    if not isinstance(session_id, str) or not isinstance(transcript, str) or not transcript:
        raise ValueError("the input names no session_id or transcript_path")
    settings, ignored = load_settings()
    if ignored:
        stderr.write(f"inspector hook: {one_line(ignored)}\n")
    if agent.late:
        from inspector.hooks.transcript_wait import wait_for_call

        wait_for_call(transcript, hook_input.get("timestamp"))
    elif agent.name == QWEN_CODE.name and hook_input.get("hook_event_name") != "SubagentStop":
        from inspector.hooks.transcript_wait import wait_for_reply

        wait_for_reply(transcript, hook_input.get("last_assistant_message"))
    where = state_path(session_id, agent_id, agent.name)
    state = load_state(where)
    tail = read_tail(transcript, state)
    kinds = settings.checked()
    thread = None if agent_id is None or agent.subagent_files else f"agent-{agent_id}"
    findings = _findings(agent, transcript, tail.data, kinds, thread) if tail.data and kinds else []
    retry = hook_input.get("stop_hook_active") is True  # this reply follows a block: only tell the person
    answer, blocked = verdict(findings, state.blocked, settings, retry)
    save_state(where, HookState(transcript, tail.end, tail.head, blocked))
    return answer


def _findings(
    agent: ChatFileAgent, transcript: str, lines: bytes, kinds: tuple[str, ...], thread: str | None
) -> list[Finding]:
    """The findings of `kinds` in the last reply these chat lines hold: the main thread's, or with
    `thread` (`agent-AGENT`) that subagent's, whose turns the reader gives as a session of their
    own. The reader and detectors are imported only when the quick look (`chat_screen`, which
    reads the main thread) says there may be some, or for a subagent."""
    from inspector.hooks.chat_screen import may_hold_chat

    if thread is None and not may_hold_chat(agent.name, lines, kinds):
        return []
    from importlib import import_module

    from inspector.hooks.reply_findings import last_reply_findings
    from inspector.sources.files.document import parse_document

    header = _header(transcript) if agent.header else b""
    data = lines if lines.startswith(header) else header + lines
    reader = import_module(f"inspector.sources.formats.{agent.reader}")
    sessions = reader.read(parse_document(transcript, data))
    chosen = next((session for session in sessions if _is_thread(session, thread)), None)
    return last_reply_findings(chosen, kinds) if chosen else []


def _is_thread(session: Session, thread: str | None) -> bool:
    """Whether the reader's `session` is the subagent's `thread` (`agent-AGENT`: its id ends
    `/agent-AGENT`) or, without one, the main thread (an id that names no subagent's)."""
    session_id = session.session_id or ""
    if thread is not None:
        return session_id.endswith(f"/{thread}")
    return "/agent-" not in session_id and not session_id.endswith("/sidechain")


def _header(transcript: str) -> bytes:
    """The chat file's first line (the session's header record), or nothing when it is not a
    whole line within the file's first `HEADER_BYTES`."""
    with open(transcript, "rb") as file:
        first = file.readline(HEADER_BYTES)
    return first if first.endswith(b"\n") else b""
