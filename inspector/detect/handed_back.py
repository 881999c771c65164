"""Where each agent hands a subagent's answer back to the agent that delegated to it, read as the
agent writes it: each answer with the turn that holds it, the tool that started the subagent, and
how to place a position of the answer in the turn's text.

- As the result of the call that started the subagent: Claude Code's `Task` (the text up to the
  notes naming the agent to resume), GitHub Copilot CLI's `task`, OpenCode's and Kilo CLI's `task`
  (its `<task_result>`), Gemini CLI's `invoke_agent` (the texts of the summary its `complete_task`
  gave, as JSON after `Result:`), Kimi Code's `Agent` (under its `[summary]` line).
- As the result of the call that waited for it: Codex's `wait_agent` (`{"status": {AGENT:
  {"completed": ANSWER}}}`), then again in a `<subagent_notification>`, read there only when no
  wait carried that answer.
- In a `<task-notification>` user message, when it ran in the background: Claude Code's and Qwen
  Code's (Qwen Code's `<result>` escaped as XML text, read unescaped, placed on the text as
  written); read only when the subagent ran no tool (`<tool_uses>0</tool_uses>`: otherwise its
  object may copy a real result), and even where the call that started it is not among the turns
  (a hook reads only what a transcript gained since its last call).

Another framework's tool named `Task` is no subagent: the calls are known by agent (`DELEGATING_TOOLS`).
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from html import unescape
from typing import Any

from inspector.detect.context import ScanContext
from inspector.model import SYSTEM, USER, Turn
from inspector.support.lazy_pattern import lazy_pattern

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
_REFERENCE = lazy_pattern(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z]{2,8});")  # `&quot;`, `&#39;`, ...

UNKNOWN_TOOLS = "its own transcript tells whether a tool ran"


@dataclass(frozen=True)
class HandedBack:
    """A subagent's answer as its agent received it: the turn holding it, the tool that started the
    subagent, the answer's text, the map from a position in it to one in the turn's text (None when
    the answer is a call's result, not the turn's text), and what tells whether the subagent ran a tool."""

    turn: Turn
    tool: str
    answer: str
    place: Callable[[int], int] | None
    tools_ran: str


def handed_back(context: ScanContext) -> Iterator[HandedBack]:
    """Every subagent's answer the session's turns hold, as its agent hands it back."""
    session_format = context.session.format
    delegating = DELEGATING_TOOLS.get(session_format, frozenset())
    waited: set[str] = set()  # (Codex hands an answer back twice: the wait's result, then a notice)
    for turn in context.turns_with_results if delegating else ():
        for result in turn.tool_results:
            if result.name in delegating:
                tool = CODEX_STARTER if session_format == "codex" else result.name
                for answer in _answers_in_result(session_format, result.content):
                    waited.add(answer)
                    yield HandedBack(turn, tool, answer, None, UNKNOWN_TOOLS)
    if session_format == "codex":
        for turn in context.session.turns:
            if turn.role == SYSTEM and turn.text.startswith(CODEX_NOTIFICATION):
                end = turn.text.rfind(CODEX_NOTICE_END)
                notice = turn.text[len(CODEX_NOTIFICATION) : end if end >= 0 else None]
                for answer in _completed(_json_value(notice)):
                    if answer not in waited:
                        yield HandedBack(turn, CODEX_STARTER, answer, None, UNKNOWN_TOOLS)
    if session_format in NOTIFYING_FORMATS:
        for turn in context.session.turns:
            if turn.role == USER and NOTIFICATION in turn.text:
                notified = _notified(context, turn)
                if notified is not None:
                    yield notified


def _notified(context: ScanContext, turn: Turn) -> HandedBack | None:
    """The answer a task notification holds, when the subagent ran no tool; None otherwise."""
    text = turn.text
    start = text.find("<result>", text.find(NOTIFICATION))
    end = text.find("</result>", start)
    if start < 0 or end < 0:
        return None
    start += len("<result>")
    uses = _TOOL_USES.search(text, end)
    if uses is None or int(uses.group(1)) != 0:
        return None
    escaped, starter = NOTIFYING_FORMATS[context.session.format]
    answer = text[start:end]
    place: Callable[[int], int] = _as_written
    if escaped and "&" in answer:
        answer, place = _unescaped(answer)
    call = _CALL_ID.search(text)
    tool = context.call_names_by_id.get(call.group(1)) if call is not None else None
    return HandedBack(turn, tool or starter, answer, lambda at: start + place(at), "it ran no tool (tool_uses: 0)")


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
