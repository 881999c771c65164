"""Gemini CLI chat messages (`{id, timestamp, type, content, ...}`) read into turns, and the
shapes of their content and calls that reading and writing share.

- `user`: the person's message, `content` a string or a list of parts (`text`, and
  `functionResponse` parts, which are results); but the context the CLI itself writes at the
  start of a chat (`<session_context>\nThis is the Gemini CLI. We are setting up the context for
  our chat. ...`; before the tag, the same sentence alone) is a system turn, not the person's;
- `gemini`: the model's reply, `content` a string or parts (`thought` parts are not text), its
  calls in `toolCalls: [{id, name, args, result, status}]`, each answered by its `result` (a list
  of `functionResponse` parts; `status: "error"` makes it an error). A reply without `toolCalls`
  may hold `functionCall` parts in its content (the CLI writes content so when it rebuilds the
  messages from its history): those are its calls then;
- `info`, `warning`, `error`: the CLI's notices to the person, never sent to the model: kept in
  place, counted in the notes (with the first error's text), not turns.

Turns follow the messages as the CLI replays them to the model: a reply with answered calls is
two turns, its calls and then their results (turn id `<id>_response`, as the CLI names it), so
positions count messages plus those. 0.61 also records each result again as a `user` message
of `functionResponse` parts: a result already read from its call is not read twice, and such a
message is no turn (it still takes a position).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, ToolCall, ToolResult, Turn
from inspector.sources.messages.arguments import parse_arguments
from inspector.support.counted_words import counted
from inspector.support.safe_text import preview_value

NOTICES = ("info", "warning", "error")
TYPES = frozenset(("user", "gemini") + NOTICES)
SESSION_CONTEXT = ("<session_context>", "This is the Gemini CLI. We are setting up the context for our chat.")


def read_turns(messages: list[Any]) -> tuple[list[Turn], list[str]]:
    """The turns of the final messages, and notes on the messages that are not turns."""
    turns: list[Turn] = []
    answered: set[str] = set()  # ids of calls whose own `result` answers them
    skipped: Counter[str | None] = Counter()
    not_objects = 0
    first_error = None
    position = 0
    for message in messages:
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "gemini":
            stored = stored_calls(message)
            calls = tuple(
                ToolCall(_text_id(call.get("id")), call["name"], call.get("args"), parse_arguments(call.get("args")))
                for _, call in stored
            )
            turns.append(
                Turn(position, ASSISTANT, content_text(message.get("content")), _id(message), calls, (), message)
            )
            results = tuple(
                ToolResult(call.id, call.name, _result_content(entry["result"]), entry.get("status") == "error")
                for call, (_, entry) in zip(calls, stored)
                if entry.get("result") is not None
            )
            if results:  # (a content `functionCall` has no `result`)
                position += 1
                turns.append(Turn(position, TOOL, "", _id(message, "_response"), (), results, message))
                answered.update(result.call_id for result in results if result.call_id is not None)
        elif kind == "user":
            turn = _user(position, message, answered)
            if turn is not None:
                turns.append(turn)
        elif not isinstance(message, dict):
            not_objects += 1
        else:
            skipped[kind if type(kind) is str else None] += 1
            if kind == "error" and first_error is None:
                first_error = preview_value(message.get("content"), 100)
        position += 1
    notes = [
        counted(count, f"{kind} message of the CLI kept, not turns", f"{kind} messages of the CLI kept, not turns")
        + " (never sent to the model)"
        + (f"; the first: {first_error}" if kind == "error" else "")
        for kind, count in skipped.items()
        if kind in NOTICES
    ]
    notes += [
        counted(count, f"message of type {kind!r} not read as turns", f"messages of type {kind!r} not read as turns")
        if kind is not None
        else counted(
            count,
            "record without a message type not read as turns",
            "records without a message type not read as turns",
        )
        for kind, count in skipped.items()
        if kind not in NOTICES
    ]
    if not_objects:
        notes.append(
            counted(not_objects, "message that is not a JSON object, kept", "messages that are not JSON objects, kept")
            + " (not read as turns)"
        )
    return turns, notes


def _user(position: int, message: dict[str, Any], answered: set[str]) -> Turn | None:
    """The person's turn, the CLI's session context (a system turn), a turn of results, or None
    for a repeat of results already read."""
    content = message.get("content")
    parts = content_parts(content) or []
    responses = [p["functionResponse"] for p in parts if isinstance(p.get("functionResponse"), dict)]
    results = tuple(
        ToolResult(_text_id(r.get("id")), r.get("name"), r.get("response"), _is_error(r.get("response")))
        for r in responses
        if _text_id(r.get("id")) not in answered
    )
    if responses and len(responses) == len(parts):
        return Turn(position, TOOL, "", _id(message), (), results, message) if results else None
    text = content_text(content)
    role = SYSTEM if not responses and text.startswith(SESSION_CONTEXT) else USER
    return Turn(position, role, text, _id(message), (), results, message)


def stored_calls(message: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """The message's calls with their index in `toolCalls`, or in its content parts."""
    if calls_home(message) == "toolCalls":
        calls = message.get("toolCalls") or []
        return [(i, call) for i, call in enumerate(calls) if isinstance(call, dict) and type(call.get("name")) is str]
    return [(i, p["functionCall"]) for i, p in enumerate(message["content"]) if is_call_part(p)]


def calls_home(message: dict[str, Any]) -> str:
    """Where the reply keeps its calls: `toolCalls`, or its content when only that holds any."""
    calls = message.get("toolCalls")
    if isinstance(calls, list) and calls:
        return "toolCalls"
    content = message.get("content")
    return "content" if isinstance(content, list) and any(is_call_part(p) for p in content) else "toolCalls"


def is_call_part(part: Any) -> bool:
    """Whether a content part is a `functionCall` with a name."""
    return (
        isinstance(part, dict)
        and isinstance(part.get("functionCall"), dict)
        and type(part["functionCall"].get("name")) is str
    )


def _result_content(result: Any) -> Any:
    """What a call's stored result says: the `response` of its `functionResponse` part, else the
    value itself (a string, or parts without one)."""
    for part in result if isinstance(result, list) else [result]:
        if isinstance(part, dict) and isinstance(part.get("functionResponse"), dict):
            return part["functionResponse"].get("response")
    return result


def _is_error(response: Any) -> bool:
    return isinstance(response, dict) and bool(response.get("error"))


def content_parts(content: Any) -> list[Any] | None:
    """Content as a list of parts (a lone part is one), or None for a string."""
    if isinstance(content, list):
        return [p for p in content if isinstance(p, dict)]
    return [content] if isinstance(content, dict) else None


def content_text(content: Any) -> str:
    """The text of a message's content: the string, or its text parts that are not thoughts."""
    if type(content) is str:
        return content
    return "".join(p["text"] for p in content_parts(content) or () if is_text_part(p))


def is_text_part(part: Any) -> bool:
    """Whether a content part is text (a `thought` part is not)."""
    return isinstance(part, dict) and type(part.get("text")) is str and part.get("thought") is not True


def _id(message: dict[str, Any], suffix: str = "") -> str | None:
    return message["id"] + suffix if type(message.get("id")) is str else None


def _text_id(value: Any) -> str | None:
    """A call id as the model has them: a string, or None."""
    return value if type(value) is str else None
