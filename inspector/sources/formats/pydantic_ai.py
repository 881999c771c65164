"""Pydantic AI message histories: the JSON `result.all_messages_json()` writes
(`ModelMessagesTypeAdapter`), a bare list of messages.

Each message is `{kind: "request" | "response", parts: [...], ...}`; a part says what it is in
`part_kind`. Requests hold `system-prompt`, `user-prompt` (content a string, or a list of strings
and media objects), `tool-return {tool_name, content, tool_call_id}` and `retry-prompt`; responses
hold `text`, `thinking` (reasoning, not text) and `tool-call {tool_name, args, tool_call_id}`, whose
`args` are a JSON string (kept as the model sent it, broken or not) or an object.

One message is one turn: a response is an assistant turn; a request is a user turn when it holds
a user prompt, a system turn when it holds only system prompts, else a tool turn. A `retry-prompt`
with a `tool_name` is the framework's own validation error for that call (arguments that did not
parse or validate), and so an error result of it; 2.x writes the same as a `tool-return` with
`outcome: "retried"` (or `failed`, `denied`), also an error result. A `retry-prompt` without a tool
(the final output failed validation) is the framework speaking as the user. Other part kinds
(files, provider-run tools, ...) are counted in the session's problems and kept as they are.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, Session, ToolCall, ToolResult, Turn
from inspector.sources.files.document import Document
from inspector.sources.files.json_layout import render_like
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.arguments import arguments_as_json, parse_arguments
from inspector.sources.messages.record_lists import rebuild_records
from inspector.sources.messages.text_parts import spread_text
from inspector.sources.messages.turn_models import model_name
from inspector.support.counted_words import counted

NAME = "pydantic-ai"

KINDS = frozenset({"request", "response"})
RESULT_KINDS = frozenset({"tool-return", "retry-prompt"})
ERROR_OUTCOMES = frozenset({"retried", "failed", "denied"})
KNOWN_PARTS = frozenset({"system-prompt", "user-prompt", "text", "thinking", "tool-call"}) | RESULT_KINDS
TEXT_PARTS = {ASSISTANT: "text", USER: "user-prompt", SYSTEM: "system-prompt"}


def claims(document: Document) -> bool:
    """A JSON list whose records are mostly Pydantic AI messages: a `kind` of request or response
    and `parts` that carry a `part_kind`."""
    value = document.value
    if document.is_jsonl or not isinstance(value, list):
        return False
    dicts = [r for r in value[:50] if isinstance(r, dict)]
    return bool(dicts) and sum(_is_message(r) for r in dicts) * 2 > len(dicts)


def read(document: Document) -> list[Session]:
    """The one session of the file."""
    turns: list[Turn] = []
    problems: list[str] = []
    unread: Counter[str] = Counter()
    names: dict[str | None, str] = {}  # a call's id -> its name (a result without an id finds none)
    for position, message in enumerate(document.value):
        if not _is_message(message):
            problems.append(f"message {position}: not a request or response with parts, skipped")
            continue
        parts = [part for part in message["parts"] if isinstance(part, dict)]
        unread.update(str(part.get("part_kind")) for part in parts if _tag(part.get("part_kind")) not in KNOWN_PARTS)
        turns.append(_turn(position, message, parts, names))
    problems.extend(
        counted(count, f"part of kind {kind!r} not read", f"parts of kind {kind!r} not read")
        for kind, count in unread.items()
    )
    return [Session(NAME, document.path, tuple(turns), (), document, 0, None, tuple(problems))]


def write(document: Document, sessions: list[Session]) -> str:
    """The file's text with the session's repaired turns; untouched messages are kept as they were."""
    return render_like(document, rebuild_records(document.value, sessions[0].turns, _render_edited, _render_new))


def _is_message(record: Any) -> bool:
    return (
        isinstance(record, dict)
        and _tag(record.get("kind")) in KINDS
        and isinstance(record.get("parts"), list)
        and all(isinstance(part, dict) and "part_kind" in part for part in record["parts"][:20])
    )


def _turn(position: int, message: dict[str, Any], parts: list[dict[str, Any]], names: dict[str | None, str]) -> Turn:
    kinds = {_tag(part.get("part_kind")) for part in parts}
    if message["kind"] == "response":
        role = ASSISTANT
    elif "user-prompt" in kinds or any(_is_user_retry(part) for part in parts):
        role = USER
    elif kinds == {"system-prompt"}:
        role = SYSTEM
    else:
        role = TOOL
    calls = tuple(_call(part) for part in parts if part.get("part_kind") == "tool-call" and _named(part))
    names.update((call.id, call.name) for call in calls if isinstance(call.id, str))
    results = tuple(
        _result(part, names) for part in parts if _tag(part.get("part_kind")) in RESULT_KINDS and _named(part)
    )
    text = "".join(text for _, _, text in _text_slots(parts, role))
    model = model_name(message.get("model_name")) if role == ASSISTANT else None
    return Turn(position, role, text, None, calls, results, message, model=model)


def _named(part: dict[str, Any]) -> bool:
    return isinstance(part.get("tool_name"), str)


def _is_user_retry(part: dict[str, Any]) -> bool:
    return part.get("part_kind") == "retry-prompt" and not _named(part)


def _call(part: dict[str, Any]) -> ToolCall:
    args = part.get("args")
    return ToolCall(_tag(part.get("tool_call_id")), part["tool_name"], args, parse_arguments(args))


def _result(part: dict[str, Any], names: dict[str | None, str]) -> ToolResult:
    failed = part["part_kind"] == "retry-prompt" or _tag(part.get("outcome")) in ERROR_OUTCOMES
    call_id = _tag(part.get("tool_call_id"))
    content = part.get("content")
    if isinstance(content, list):  # the validation errors of a retry, as pydantic's error list
        content = json.dumps(content, ensure_ascii=False)
    return ToolResult(call_id, part["tool_name"] or names.get(call_id), content, failed)


def _text_slots(parts: list[Any], role: str) -> list[tuple[int, int | None, str]]:
    """Where a turn's text is kept: (index of the part, index in its content list or None, text).
    A user turn's text is its prompts' strings, and a retry-prompt's text when it has no tool."""
    kind = TEXT_PARTS.get(role)
    slots: list[tuple[int, int | None, str]] = []
    for index, part in enumerate(parts):
        if not isinstance(part, dict):
            continue
        if part.get("part_kind") == kind or (role == USER and _is_user_retry(part)):
            content = part.get("content")
            if isinstance(content, str):
                slots.append((index, None, content))
            elif isinstance(content, list):
                slots.extend((index, item, text) for item, text in enumerate(content) if isinstance(text, str))
    return slots


def _render_edited(turn: Turn) -> dict[str, Any]:
    message = dict(turn.raw)
    parts = list(message["parts"])
    slots = _text_slots(parts, turn.role)
    if turn.text != "".join(text for _, _, text in slots):
        _respread(parts, slots, turn.text)
    calls = iter(turn.tool_calls)
    results = iter(turn.tool_results)
    for index, part in enumerate(parts):
        if not isinstance(part, dict) or not _named(part):
            continue
        if part.get("part_kind") == "tool-call":
            parts[index] = _with_call(part, next(calls, None))
        elif _tag(part.get("part_kind")) in RESULT_KINDS:
            result = next(results, None)
            if result is not None and result.name is not None and result.name != part["tool_name"]:
                parts[index] = {**part, "tool_name": result.name}
    message["parts"] = parts + [_call_part(call) for call in calls]  # and any calls a repair gave it
    return message


def _respread(parts: list[Any], slots: list[tuple[int, int | None, str]], new_text: str) -> None:
    """Put `new_text` into the turn's text slots (as `spread_text` spreads it), in place; a turn
    with no text slot gets a new text part."""
    if not slots:
        parts.insert(0, {"content": new_text, "part_kind": "text"})
        return
    for (index, item, _), text in zip(slots, spread_text([text for _, _, text in slots], new_text)):
        part = dict(parts[index])
        if item is None:
            part["content"] = text
        else:
            content = list(part["content"])
            content[item] = text
            part["content"] = content
        parts[index] = part


def _with_call(part: dict[str, Any], call: ToolCall | None) -> dict[str, Any]:
    """The tool-call part under the call's name and, when a repair replaced them, its arguments
    (a JSON string where the part held one, else an object)."""
    if call is None or (call.name == part["tool_name"] and call.arguments_raw is part.get("args")):
        return part
    fixed = {**part, "tool_name": call.name}
    if call.arguments_raw is not part.get("args"):
        fixed["args"] = (
            arguments_as_json(call.arguments_raw) if isinstance(part.get("args"), str) else call.arguments_raw
        )
    return fixed


def _call_part(call: ToolCall) -> dict[str, Any]:
    return {"tool_name": call.name, "args": call.arguments or {}, "tool_call_id": call.id, "part_kind": "tool-call"}


def _render_new(turn: Turn) -> list[dict[str, Any]]:
    if turn.role == TOOL:
        return [{"parts": [_result_part(result) for result in turn.tool_results], "kind": "request"}]
    parts = [{"content": turn.text, "part_kind": "text"}] if turn.text else []
    return [{"parts": parts + [_call_part(call) for call in turn.tool_calls], "kind": "response"}]


def _result_part(result: ToolResult) -> dict[str, Any]:
    """A tool-return part for `result` (a retry-prompt when it is an error, as 1.x writes them)."""
    return {
        "tool_name": result.name,
        "content": result.content,
        "tool_call_id": result.call_id,
        "part_kind": "retry-prompt" if result.is_error else "tool-return",
    }


def _tag(value: Any) -> str | None:
    """A string marker as it is; anything else (a list, say) as None, which no set of markers holds."""
    return value if type(value) is str else None


FORMAT = FileFormat(NAME, claims, read, write)
