"""OpenCode's messages and parts as turns, shared by its SQLite history (`opencode.db`, and Kilo
CLI's `kilo.db`: the schema `opencode`) and its older JSON storage (the format `opencode-storage`),
which keep the same message and part objects; and what the history's writer shares about a `tool`
part: the call it records, read back from how OpenCode (the tool `invalid`) and Kilo CLI (a failed
call with `input.value`) store a call whose arguments did not parse.

A message gives its `role` and, for the assistant, the `modelID` (`Turn.model`); its parts give
the rest:
- `text` parts are the turn's text (joined); `reasoning` is the model's thinking, not its text;
  `step-start`, `step-finish`, `file`, `patch`, `snapshot`, `agent`, `subtask`, `retry` and
  `compaction` are kept in the turn's row as they are;
- a `tool` part `{tool, callID, state: {status, input, output | error}}` holds a call and its
  result at once: the call goes to the assistant turn, its result (once `completed` or `error`)
  to a tool turn just after it, as the model reads them back.
Any other part type, and a part that is not a JSON object, is counted in the session's problems
(`Problems`, each kind with what one and several of it are called).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from inspector.model import ASSISTANT, TOOL, USER, ToolCall, ToolResult, Turn
from inspector.sources.messages.arguments import parse_arguments
from inspector.support.counted_words import counted

Problems = Counter[tuple[str, str]]  # each kind of record not read: (one of them, several), counted

ROLES = {"user": USER, "assistant": ASSISTANT}
KEPT_PARTS = frozenset(
    {"reasoning", "step-start", "step-finish", "file", "patch", "snapshot", "agent", "subtask", "retry", "compaction"}
)

MESSAGE_NOT_AN_OBJECT = ("message whose data is not a JSON object", "messages whose data is not a JSON object")
OTHER_ROLE = ("message that is not a user's or an assistant's", "messages that are not a user's or an assistant's")
PART_NOT_AN_OBJECT = ("part whose data is not a JSON object", "parts whose data is not a JSON object")

INVALID_TOOL = "invalid"  # OpenCode's name for a call whose arguments did not parse
RAW_TEXT, RAW_END = "Text: ", ".\nError message:"  # how the SDK's parse error quotes the raw arguments


def stored_call(tool: Any, state: dict[str, Any]) -> tuple[str, Any]:
    """The tool a part names and the arguments it was called with: for a call whose arguments did
    not parse, the tool the model named and the raw text it sent."""
    arguments = state.get("input")
    name = tool if isinstance(tool, str) else ""
    if not isinstance(arguments, dict):
        return name, arguments
    if name == INVALID_TOOL and isinstance(arguments.get("tool"), str):
        error = arguments.get("error")
        quoted = (error if isinstance(error, str) else "").partition(RAW_TEXT)[2].rpartition(RAW_END)
        return arguments["tool"], quoted[0] if quoted[1] else arguments
    if state.get("status") == "error" and set(arguments) == {"value"} and isinstance(arguments["value"], str):
        return name, arguments["value"]  # Kilo keeps the raw text of arguments that did not parse
    return name, arguments


def mapping(value: Any) -> dict[str, Any]:
    """`value` when it is a JSON object, else an empty one."""
    return value if isinstance(value, dict) else {}


def message_turns(
    position: int,
    message_id: str,
    role: str,
    message: dict[str, Any],
    parts: list[tuple[str, Any]],
    problems: Problems,
) -> list[Turn]:
    """The turns of one message (`role` one of `ROLES`' values), its parts `(part id, part)` in
    order: its own turn, then a tool turn with the results of its tool parts. A part that is not a
    JSON object, or of a type not known, is counted in `problems`."""
    texts, calls, results = [], [], []
    for _, part in parts:
        if not isinstance(part, dict):
            problems[PART_NOT_AN_OBJECT] += 1
            continue
        kind = part.get("type")
        if not isinstance(kind, str):
            problems["part without a type", "parts without a type"] += 1
        elif kind == "text":
            text = part.get("text")
            texts.append(text if isinstance(text, str) else "")
        elif kind == "tool":
            call, result = tool_part(part)
            calls.append(call)
            results.extend([result] if result is not None else [])
        elif kind not in KEPT_PARTS:
            unknown = f"of a type this reader does not know ({kind!r})"
            problems[f"part {unknown}", f"parts {unknown}"] += 1
    model = message.get("modelID") if isinstance(message.get("modelID"), str) else None
    raw = {"id": message_id, "parts": [part_id for part_id, _ in parts]}
    turn = Turn(position, role, "".join(texts), message_id, tuple(calls), (), raw, model=model)
    if not results:
        return [turn]
    return [turn, Turn(position, TOOL, "", message_id, (), tuple(results), {"id": message_id, "results": True})]


def problem_lines(problems: Problems) -> tuple[str, ...]:
    """The session's problems in words: each kind of record counted, kept as stored."""
    return tuple(f"{counted(count, one, many)}, kept as stored" for (one, many), count in problems.items())


def tool_part(part: dict[str, Any]) -> tuple[ToolCall, ToolResult | None]:
    """The call a `tool` part records, and its result once it has one."""
    state = mapping(part.get("state"))
    name, arguments = stored_call(part.get("tool"), state)
    call_id = part.get("callID") if isinstance(part.get("callID"), str) else None
    status = state.get("status")
    call = ToolCall(call_id, name, arguments, parse_arguments(arguments))
    if status == "completed":
        return call, ToolResult(call_id, name, state.get("output"), part.get("tool") == INVALID_TOOL)
    if status == "error":
        return call, ToolResult(call_id, name, state.get("error"), True)
    return call, None
