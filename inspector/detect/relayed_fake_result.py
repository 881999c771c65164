"""Detector `relayed-fake-result`: a subagent's answer, handed back to the agent that delegated to
it, that opens with a fake tool result.

A subagent answers with its last reply: as the result of the call that started it (Claude Code's
`Task`, GitHub Copilot CLI's `task`, OpenCode's `task` in its `<task_result>`, Gemini CLI's
`invoke_agent` the summary its `complete_task` gave, Kimi Code's `Agent` under its `[summary]` line)
or that waited for it (Codex's
`wait_agent`, then again in a `<subagent_notification>`, flagged there only when no wait carried
it), or, when it ran in the background, in a
`<task-notification>` message whose `<result>` holds it (Claude Code's `Agent`; Qwen Code's
`agent`, the result escaped as XML text). A subagent that
wrote a tool's result instead of calling the tool (`{"file_path": "notes.txt", "content":
"..."}notes.txt says ...`) has that object flagged in its own transcript (`result-prefix`); the
agent above it sees only the answer, and tells the person what it holds as if a tool had read or
saved it. This flags the answer where the agent received it, so that a scan of the main session
alone shows it. No fix: what the agent told the person from it is for the person to weigh.

Flagged: an answer whose text opens with an object (as `result-prefix` reads one, lenient JSON)
followed by other text, in the sessions of the agents whose delegating calls are known
(`DELEGATING_TOOLS`: another framework's tool named `Task` is no subagent); a notification,
Claude Code's own message, is read even where the call that started its subagent is not among
the turns (a hook reads only what a transcript gained since its last call). Not flagged: an answer
that is only JSON (objects or a list after it), an answer with text before the object, the notice
of a subagent started in the background, and a notification saying the subagent ran tools
(`<tool_uses>` above 0: its object may copy a real result).
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections.abc import Callable, Iterator
from html import unescape
from typing import Any

from inspector.detect.context import ScanContext
from inspector.detect.contract import Detector
from inspector.model import SYSTEM, USER, WARNING, Finding, Turn
from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.lenient_json import parse_object_at

KIND = "relayed-fake-result"
# The calls whose result is a subagent's answer, by the format of the agents that make them.
DELEGATING_TOOLS = {
    "claude-code": frozenset({"Task", "Agent"}),
    "kimi-code": frozenset({"Agent"}),
    "codex": frozenset({"wait_agent"}),
    "copilot-cli": frozenset({"task"}),
    "opencode": frozenset({"task"}),
    "gemini-cli": frozenset({"invoke_agent"}),
}
# Codex: the answers come back as `{"status": {AGENT: {"completed": ANSWER}}}` from `wait_agent`, and
# in a notice `<subagent_notification>{"agent_path": AGENT, "status": {"completed": ANSWER}}`; both
# name the subagent by the tool that started it.
CODEX_NOTIFICATION, CODEX_NOTICE_END = "<subagent_notification>", "</subagent_notification>"
CODEX_STARTER = "spawn_agent"
NOTIFICATION = "<task-notification>"
# The formats whose sessions get a background subagent's answer in a notification: whether its
# `<result>` is escaped as XML text (Qwen Code writes `{&quot;file_path&quot;: ...`), and the name of
# the tool that starts a subagent, said when the call is not among the turns.
NOTIFYING_FORMATS = {"claude-code": (False, "Agent"), "qwen-code": (True, "agent")}
_SUMMARY = "\n[summary]\n"  # Kimi Code: the answer follows it, up to its resume hint
_TASK_RESULT, _TASK_RESULT_END = "<task_result>", "</task_result>"  # OpenCode: the answer between them
_GEMINI_RESULT = "\nResult:\n"  # Gemini CLI: the subagent's summary, as JSON, follows it
_RESUME_HINT = "\n\nresume_hint:"
_AGENT_ID = "agentId: "  # Claude Code: the notes after the answer, which its result's text runs into
_AGENT_NOTE = lazy_pattern(r"agentId: [\w-]{1,64} \(")  # (`... (for resuming ...)`, and what follows it)
_TOOL_USES = lazy_pattern(r"<tool_uses>(\d{1,9})</tool_uses>")
_CALL_ID = lazy_pattern(r"<tool-use-id>([^<\n]{1,200})</tool-use-id>")
_KEYS_SHOWN = 4
_REFERENCE = lazy_pattern(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z]{2,8});")  # `&quot;`, `&#39;`, ...


def detect(context: ScanContext) -> Iterator[Finding]:
    """Findings for every delegating call's result, and every task notification, whose answer
    opens with a fake tool result."""
    session_format = context.session.format
    delegating = DELEGATING_TOOLS.get(session_format, frozenset())
    passed_on: set[str] = set()  # the answers flagged (Codex hands one back twice: the wait's result, a notice)
    for turn in context.turns_with_results if delegating else ():
        for result in turn.tool_results:
            if result.name in delegating:
                for answer in _answers_in_result(session_format, result.content):
                    fake = _fake_at_start(answer)
                    if fake is not None:
                        passed_on.add(answer)
                        tool = CODEX_STARTER if session_format == "codex" else result.name
                        yield _finding(turn, tool, fake[2], None, "its own transcript tells whether a tool ran")
    if session_format == "codex":
        for turn in context.session.turns:
            if turn.role == SYSTEM and turn.text.startswith(CODEX_NOTIFICATION):
                end = turn.text.rfind(CODEX_NOTICE_END)
                notice = turn.text[len(CODEX_NOTIFICATION) : end if end >= 0 else None]
                for answer in _completed(_json_value(notice)):
                    fake = _fake_at_start(answer)
                    if fake is not None and answer not in passed_on:
                        passed_on.add(answer)
                        yield _finding(
                            turn, CODEX_STARTER, fake[2], None, "its own transcript tells whether a tool ran"
                        )
    if session_format in NOTIFYING_FORMATS:
        for turn in context.session.turns:
            if turn.role == USER and NOTIFICATION in turn.text:
                yield from _notified(context, turn)


def _notified(context: ScanContext, turn: Turn) -> Iterator[Finding]:
    """The finding of a task notification's answer, when it opens with a fake tool result and the
    subagent ran no tool."""
    text = turn.text
    start = text.find("<result>", text.find(NOTIFICATION))
    end = text.find("</result>", start)
    if start < 0 or end < 0:
        return
    start += len("<result>")
    uses = _TOOL_USES.search(text, end)
    if uses is None or int(uses.group(1)) != 0:
        return
    escaped, starter = NOTIFYING_FORMATS[context.session.format]
    answer = text[start:end]
    place: Callable[[int], int] = _as_written
    if escaped and "&" in answer:
        answer, place = _unescaped(answer)
    fake = _fake_at_start(answer)
    if fake is None:
        return
    call = _CALL_ID.search(text)
    tool = context.call_names_by_id.get(call.group(1)) if call is not None else None
    span = (start + place(fake[0]), start + place(fake[1]))
    yield _finding(turn, tool or starter, fake[2], span, "it ran no tool (tool_uses: 0)")


def _unescaped(written: str) -> tuple[str, Callable[[int], int]]:
    """`written` with its XML character references replaced by the characters they stand for, and
    the map from a position in that text to the same place in `written`."""
    pieces: list[str] = []
    marks: list[int] = []  # where each reference ends in the text made
    places: list[int] = []  # and where it ends in `written`
    made = last = 0
    for match in _REFERENCE.finditer(written):
        pieces += (written[last : match.start()], unescape(match.group()))
        made += match.start() - last + len(pieces[-1])
        last = match.end()
        marks.append(made)
        places.append(last)

    def place(at: int) -> int:
        index = bisect_right(marks, at) - 1
        return at if index < 0 else places[index] + at - marks[index]

    return "".join(pieces) + written[last:], place


def _as_written(at: int) -> int:
    """The place in an answer that is not escaped: the same."""
    return at


def _answers_in_result(session_format: str, content: Any) -> list[str]:
    """The subagents' answers in a delegating call's result: the `completed` answers of Codex's
    `wait_agent`, the summary of Gemini CLI's `invoke_agent`, else the one answer
    `_answer_in_result` reads."""
    if session_format == "codex":
        return _completed(_json_value(content) if isinstance(content, str) else content)
    if session_format == "gemini-cli":
        return _summarised(content)
    return [_answer_in_result(content)]


def _summarised(content: Any) -> list[str]:
    """The texts of the summary a Gemini CLI subagent ended with, in its `invoke_agent` result:
    `{"output": "Subagent ... finished.\n...\nResult:\n{JSON}"}`, the JSON's texts (its `response`)."""
    output = content.get("output") if isinstance(content, dict) else content
    if not isinstance(output, str) or (at := output.find(_GEMINI_RESULT)) < 0:
        return []
    summary = _json_value(output[at + len(_GEMINI_RESULT) :])
    return [text for text in summary.values() if isinstance(text, str)] if isinstance(summary, dict) else []


def _completed(value: Any) -> list[str]:
    """The answers of the subagents a Codex status says completed: `{"status": {"completed": A}}`
    (a notice's) or `{"status": {AGENT: {"completed": A}, ...}}` (a wait's)."""
    status = value.get("status") if isinstance(value, dict) else None
    if not isinstance(status, dict):
        return []
    if isinstance(status.get("completed"), str):
        return [status["completed"]]
    return [
        each["completed"]
        for each in status.values()
        if isinstance(each, dict) and isinstance(each.get("completed"), str)
    ]


def _json_value(text: str) -> Any:
    """The JSON value `text` holds (white space around it allowed), or None."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _answer_in_result(content: Any) -> str:
    """The subagent's answer in its delegating call's result: what its `<task_result>` holds
    (OpenCode), the result's text up to the notes naming the agent to resume (Claude Code), or
    what follows its `[summary]` line up to the resume hint (Kimi Code)."""
    if isinstance(content, list):
        content = next((part.get("text") for part in content if isinstance(part, dict)), None)
    if not isinstance(content, str):
        return ""
    task_result = content.find(_TASK_RESULT) if content.startswith("<task ") else -1
    if task_result >= 0:
        start = task_result + len(_TASK_RESULT)
        end = content.find(_TASK_RESULT_END, start)
        return content[start : end if end >= 0 else len(content)]
    summary = content.find(_SUMMARY)
    if summary < 0:
        resume = content.rfind(_AGENT_ID)
        return content[:resume] if resume >= 0 and _AGENT_NOTE.match(content, resume) else content
    answer = content[summary + len(_SUMMARY) :]
    hint = answer.find(_RESUME_HINT)
    return answer if hint < 0 else answer[:hint]


def _fake_at_start(answer: str) -> tuple[int, int, dict[str, Any]] | None:
    """Where the object an answer opens with starts and ends, and the object, when other text
    follows it; None for anything else."""
    start = len(answer) - len(answer.lstrip())
    if not answer.startswith("{", start):
        return None
    parsed = parse_object_at(answer, start)
    if parsed is None or not isinstance(parsed.value, dict) or not parsed.value:
        return None
    rest = answer[parsed.end :].lstrip()
    if not rest or rest.startswith(("{", "[")):
        return None  # a JSON answer (or objects run together)
    return start, parsed.end, parsed.value


def _finding(turn: Turn, tool: str, obj: dict[str, Any], span: tuple[int, int] | None, known: str) -> Finding:
    keys = list(obj)
    shown = ", ".join(map(str, keys[:_KEYS_SHOWN])) + (", ..." if len(keys) > _KEYS_SHOWN else "")
    message = (
        f"The answer the {tool} subagent handed back opens with an object that looks like a fake tool result "
        f"({shown}) before its text; {known}. A subagent that wrote a result instead of calling the tool made "
        "its data up, and what the agent tells the person from it rests on nothing."
    )
    return Finding(turn.position, turn.id, turn.role, KIND, WARNING, message, span, tool, payload=obj)


DETECTOR = Detector(KIND, WARNING, detect)
