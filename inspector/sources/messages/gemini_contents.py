"""Gemini `Content` records (`{role: "user" | "model", parts: [...]}`) read into turns and written
back: parts `{text}` (`thought: true` marks reasoning, not text), `{functionCall: {id?, name,
args}}` and `{functionResponse: {id?, name, response}}`, in either spelling (`function_call`,
...), an edited part keeping the spelling it had. Used by `gemini` (a request's contents, a Gemini
CLI checkpoint) and `qwen-code` (each record's `message`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from inspector.model import ASSISTANT, TOOL, USER, ToolCall, ToolResult, Turn
from inspector.sources.messages.arguments import parse_arguments
from inspector.sources.messages.text_parts import respread_parts

ROLES = {"user": USER, "model": ASSISTANT, "function": TOOL}
CALL_KEYS = ("functionCall", "function_call")
RESPONSE_KEYS = ("functionResponse", "function_response")


def content_turn(position: int, content: dict[str, Any]) -> Turn:
    """A content as a turn (`raw` the content): its text parts, calls and responses; a user content
    holding only responses is a tool turn."""
    parts = [p for p in content["parts"] if isinstance(p, dict)]
    calls, results = [], []
    for part in parts:
        call = field(part, CALL_KEYS)
        if call is not None and isinstance(call.get("name"), str):
            args = call.get("args")
            calls.append(ToolCall(call.get("id"), call["name"], args, parse_arguments(args)))
        response = field(part, RESPONSE_KEYS)
        if response is not None:
            body = response.get("response")
            results.append(
                ToolResult(
                    response.get("id"), response.get("name"), body, isinstance(body, dict) and bool(body.get("error"))
                )
            )
    role = ROLES[content.get("role", "user")]
    if role == USER and results and len(results) == len(content["parts"]):
        role = TOOL
    return Turn(position, role, parts_text(parts), None, tuple(calls), tuple(results), content)


def field(part: dict[str, Any], keys: tuple[str, str]) -> dict[str, Any] | None:
    """The part's value under either spelling of a key, when it is an object."""
    for key in keys:
        value = part.get(key)
        if isinstance(value, dict):
            return value
    return None


def is_text_part(part: Any) -> bool:
    """Whether a part is text (a `thought` part is not)."""
    return isinstance(part, dict) and isinstance(part.get("text"), str) and part.get("thought") is not True


def render_edited(turn: Turn) -> dict[str, Any]:
    """The content `turn.raw` with the turn's repaired text, calls and result names; untouched
    parts kept as they were, and any calls a repair gave the turn added at the end."""
    content = dict(turn.raw)
    parts = content["parts"]
    calls, results = iter(turn.tool_calls), iter(turn.tool_results)

    def repaired(part: Any) -> Any:
        return _with_result(_with_call(part, calls), results) if isinstance(part, dict) else part

    if turn.text == parts_text(parts):  # only calls or results changed: every text part stays as it was
        new_parts = [repaired(part) for part in parts]
    else:
        new_parts = respread_parts(parts, is_text_part, turn.text, repaired)
    content["parts"] = new_parts + [call_part(call) for call in calls]  # and any calls a repair gave it
    return content


def _with_call(part: dict[str, Any], calls: Iterator[ToolCall]) -> dict[str, Any]:
    """The part with its stored call (when it has one) under the call's name and arguments as
    repaired; the next of `calls` is its call, in the order `_turn` read them."""
    stored = field(part, CALL_KEYS)
    if stored is None or not isinstance(stored.get("name"), str):
        return part
    call = next(calls, None)
    if call is None or (call.arguments_raw is stored.get("args") and call.name == stored["name"]):
        return part
    key = next(k for k in CALL_KEYS if part.get(k) is stored)
    fixed = {**stored, "name": call.name}
    if call.arguments_raw is not stored.get("args"):
        fixed["args"] = call.arguments_raw
    return {**part, key: fixed}


def _with_result(part: dict[str, Any], results: Iterator[ToolResult]) -> dict[str, Any]:
    """The part with its stored response (when it has one) under the name of the next of
    `results`: Gemini pairs a response with its call by name, so it follows a renamed call."""
    stored = field(part, RESPONSE_KEYS)
    if stored is None:
        return part
    result = next(results, None)
    if result is None or result.name is None or result.name == stored.get("name"):
        return part
    key = next(k for k in RESPONSE_KEYS if part.get(k) is stored)
    return {**part, key: {**stored, "name": result.name}}


def parts_text(parts: list[Any]) -> str:
    """The text of a content's parts, thoughts left out."""
    return "".join(part["text"] for part in parts if is_text_part(part))


def new_contents(turn: Turn) -> list[dict[str, Any]]:
    """The one content a new turn is written as: its results, or its text and calls."""
    if turn.role == TOOL:
        return [{"role": "user", "parts": [{"functionResponse": response_of(result)} for result in turn.tool_results]}]
    parts: list[dict[str, Any]] = [{"text": turn.text}] if turn.text or not turn.tool_calls else []
    parts.extend(call_part(call) for call in turn.tool_calls)
    return [{"role": "model" if turn.role == ASSISTANT else "user", "parts": parts}]


def call_part(call: ToolCall) -> dict[str, Any]:
    """A `functionCall` part for a call (its arguments an object)."""
    body = {"id": call.id} if call.id else {}
    return {"functionCall": {**body, "name": call.name, "args": call.arguments or {}}}


def response_of(result: ToolResult) -> dict[str, Any]:
    """A `functionResponse` for a result (its content under `result` unless an object)."""
    body = {"id": result.call_id} if result.call_id else {}
    response = result.content if isinstance(result.content, dict) else {"result": result.content}
    return {**body, "name": result.name, "response": response}
