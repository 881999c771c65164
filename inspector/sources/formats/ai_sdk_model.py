"""Vercel AI SDK `ModelMessage[]`: what `generateText` / `streamText` return as `response.messages`
and apps keep as the history they send back (a bare list, or under `messages`).

Roles are system, user, assistant and tool; `content` is a string or a list of typed parts:
`text`, `reasoning` (not text), `file` / `image`, `tool-call {toolCallId, toolName, input}` in
assistant messages and `tool-result {toolCallId, toolName, output: {type, value}}` in tool
messages, where an output of type `error-text` / `error-json` (or `execution-denied`) is an error.
AI SDK 4 wrote `args` for `input` and `result` for `output`; both are read, and an edited part
keeps the key it had. Approval parts (`tool-approval-request`, `tool-approval-response`) and other
parts are kept as they are, the unknown ones counted in the session's problems.

A broken argument string never reaches this history: the SDK stores such a call with `input: {}`
and answers it with an `error-text` result quoting the text, so it shows as that result's error.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, Session, ToolCall, ToolResult, Turn
from inspector.sources.files.document import Document
from inspector.sources.files.json_layout import render_like
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.arguments import parse_arguments
from inspector.sources.messages.message_list import claimed_messages, message_list
from inspector.sources.messages.record_lists import rebuild_records
from inspector.sources.messages.text_parts import respread_parts
from inspector.support.counted_words import counted

NAME = "ai-sdk-model"

ROLES = {"system": SYSTEM, "user": USER, "assistant": ASSISTANT, "tool": TOOL}
# Part types only the AI SDK writes in a message's content (OpenAI and Anthropic spell theirs otherwise).
MARKERS = frozenset({"tool-call", "tool-result", "tool-approval-request", "tool-approval-response"})
KNOWN_PARTS = MARKERS | {"text", "reasoning", "redacted-reasoning", "file", "image"}
ERROR_OUTPUTS = frozenset({"error-text", "error-json", "execution-denied"})


def claims(document: Document) -> bool:
    """A message list (alone or under `messages`) of AI SDK roles whose parts show a call, a
    result or an approval typed the AI SDK's way, with its `toolCallId`."""
    messages = message_list(document)
    if messages is None:
        return False
    dicts = [m for m in messages[:50] if isinstance(m, dict)]
    if not dicts or sum(_tag(m.get("role")) in ROLES for m in dicts) * 2 <= len(dicts):
        return False
    return any(_tag(part.get("type")) in MARKERS and "toolCallId" in part for m in dicts for part in _parts(m))


def read(document: Document) -> list[Session]:
    """The one session of the file."""
    turns: list[Turn] = []
    problems: list[str] = []
    unread: Counter[str] = Counter()
    for position, message in enumerate(claimed_messages(document)):
        if not isinstance(message, dict) or _tag(message.get("role")) not in ROLES:
            problems.append(f"message {position}: not a message with a system, user, assistant or tool role, skipped")
            continue
        parts = _parts(message)
        unread.update(str(part.get("type")) for part in parts if _tag(part.get("type")) not in KNOWN_PARTS)
        calls = tuple(
            ToolCall(_tag(p.get("toolCallId")), p["toolName"], _input(p), parse_arguments(_input(p)))
            for p in parts
            if p.get("type") == "tool-call" and isinstance(p.get("toolName"), str)
        )
        results = tuple(_result(p) for p in parts if p.get("type") == "tool-result")
        content = message.get("content")
        text = content if isinstance(content, str) else "".join(p["text"] for p in parts if _is_text(p))
        turns.append(Turn(position, ROLES[message["role"]], text, None, calls, results, message))
    problems.extend(
        counted(count, f"part of type {kind!r} not read", f"parts of type {kind!r} not read")
        for kind, count in unread.items()
    )
    return [Session(NAME, document.path, tuple(turns), (), document, 0, None, tuple(problems))]


def write(document: Document, sessions: list[Session]) -> str:
    """The file's text with the session's repaired turns; untouched messages are kept as they were."""
    value = document.value
    messages = rebuild_records(claimed_messages(document), sessions[0].turns, _render_edited, _render_new)
    return render_like(document, messages if isinstance(value, list) else {**value, "messages": messages})


def _parts(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message.get("content")
    return [part for part in content if isinstance(part, dict)] if isinstance(content, list) else []


def _is_text(part: Any) -> bool:
    return isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str)


def _input(part: dict[str, Any]) -> Any:
    return part["input"] if "input" in part or "args" not in part else part["args"]


def _result(part: dict[str, Any]) -> ToolResult:
    """A tool-result part as a result: v5+ `output: {type, value}`, or v4 `result` (+ `isError`)."""
    output = part.get("output")
    if isinstance(output, dict) and isinstance(output.get("type"), str):
        content = output.get("value", output.get("reason"))
        failed = output["type"] in ERROR_OUTPUTS
    else:
        content = part.get("result", output)
        failed = part.get("isError") is True
    name = part.get("toolName")
    return ToolResult(_tag(part.get("toolCallId")), name if isinstance(name, str) else None, content, failed)


def _render_edited(turn: Turn) -> dict[str, Any]:
    message = dict(turn.raw)
    content = message.get("content")
    calls, results = iter(turn.tool_calls), iter(turn.tool_results)

    def repaired(part: Any) -> Any:
        if not isinstance(part, dict):
            return part
        if part.get("type") == "tool-call" and isinstance(part.get("toolName"), str):
            return _with_call(part, next(calls, None))
        if part.get("type") == "tool-result":
            result = next(results, None)
            if result is not None and result.name is not None and result.name != part.get("toolName"):
                return {**part, "toolName": result.name}
        return part

    if not isinstance(content, list):
        message["content"] = turn.text if not turn.tool_calls else _parts_of(turn.text, turn.tool_calls)
        return message
    if turn.text == "".join(p["text"] for p in content if _is_text(p)):
        parts = [repaired(part) for part in content]
    else:
        parts = respread_parts(content, _is_text, turn.text, repaired)
    message["content"] = parts + _parts_of("", tuple(calls))  # and any calls a repair gave it
    return message


def _with_call(part: dict[str, Any], call: ToolCall | None) -> dict[str, Any]:
    key = "input" if "input" in part or "args" not in part else "args"
    if call is None or (call.name == part["toolName"] and call.arguments_raw is part.get(key)):
        return part
    return {**part, "toolName": call.name, key: call.arguments_raw}


def _parts_of(text: str, calls: tuple[ToolCall, ...]) -> list[dict[str, Any]]:
    parts: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
    parts.extend(
        {"type": "tool-call", "toolCallId": call.id, "toolName": call.name, "input": call.arguments or {}}
        for call in calls
    )
    return parts


def _render_new(turn: Turn) -> list[dict[str, Any]]:
    if turn.role == TOOL:
        return [{"role": "tool", "content": [_result_part(result) for result in turn.tool_results]}]
    if not turn.tool_calls:
        return [{"role": "assistant" if turn.role == ASSISTANT else "user", "content": turn.text}]
    return [{"role": "assistant", "content": _parts_of(turn.text, turn.tool_calls)}]


def _result_part(result: ToolResult) -> dict[str, Any]:
    text = isinstance(result.content, str)
    kind = ("error-" if result.is_error else "") + ("text" if text else "json")
    return {
        "type": "tool-result",
        "toolCallId": result.call_id,
        "toolName": result.name,
        "output": {"type": kind, "value": result.content},
    }


def _tag(value: Any) -> str | None:
    """A string marker as it is; anything else (a list, say) as None, which no set of markers holds."""
    return value if type(value) is str else None


FORMAT = FileFormat(NAME, claims, read, write)
