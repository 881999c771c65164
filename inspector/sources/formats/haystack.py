"""Haystack 2.x chat histories: a JSON list of `ChatMessage.to_dict()` (or `{"messages": [...]}`).

Shape read: `{"role", "meta", "name", "content": [parts]}` where a part is `{"text"}`,
`{"tool_call": {"tool_name", "arguments": {...}, "id", "extra"}}`, `{"tool_call_result":
{"result": str | [parts], "origin": <the tool_call>, "error": bool}}`, or `{"reasoning"}`,
`{"image"}`, `{"file"}` (kept, not text). Haystack 2.9 to 2.11 wrote `_role`, `_content`, `_meta`,
`_name`; before 2.9 `content` was a string. A result names its call through `origin.id`.
Arguments are an object (Haystack drops a call whose arguments did not parse), so a malformed
call shows as a wrong parameter answered by an `error: true` result.

Positive marker: every message carries Haystack's `meta` (or `_role` + `_content`) and the parts
have no OpenAI `type`. Haystack loads these back (`ChatMessage.from_dict`), so the format is
written: untouched messages stay as they were; recovered calls become an assistant message with
`tool_call` parts and one `tool` message per "not executed" result, in the file's own key style.
"""

from __future__ import annotations

from typing import Any

from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, Session, ToolCall, ToolResult, Turn
from inspector.sources.files.document import Document
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.arguments import arguments_as_json, parse_arguments
from inspector.sources.messages.message_list import claimed_messages, message_list
from inspector.sources.messages.record_lists import rebuild_records
from inspector.sources.messages.text_parts import is_text_part, respread_parts
from inspector.support.counted_words import counted

NAME = "haystack"

ROLES = {"system": SYSTEM, "user": USER, "assistant": ASSISTANT, "tool": TOOL, "function": TOOL}
KNOWN_PARTS = ("text", "tool_call", "tool_call_result", "reasoning", "image", "file")
CURRENT_KEYS = ("role", "content", "meta", "name")
OLD_KEYS = ("_role", "_content", "_meta", "_name")  # Haystack 2.9 to 2.11


def claims(document: Document) -> bool:
    """A message list whose messages all carry Haystack's keys and whose parts have no `type`."""
    messages = message_list(document)
    sample = [m for m in messages[:50] if isinstance(m, dict)] if messages is not None else []
    return bool(sample) and all(
        _keys(m) is not None
        and not any(isinstance(part, dict) and "type" in part for part in _content(m, _keys(m)) or ())
        for m in sample
    )


def read(document: Document) -> list[Session]:
    """The one conversation of the file."""
    turns: list[Turn] = []
    problems: list[str] = []
    unknown: dict[str, int] = {}
    for position, message in enumerate(claimed_messages(document)):
        keys = _keys(message) if isinstance(message, dict) else None
        role = ROLES.get(message[keys[0]]) if keys is not None and isinstance(message[keys[0]], str) else None
        if role is None:
            problems.append(f"message {position}: not a Haystack message with a known role, skipped")
            continue
        content = _content(message, keys)
        texts: list[str] = []
        calls: list[ToolCall] = []
        results: list[ToolResult] = []
        for part in content if isinstance(content, list) else ():
            if type(part) is not dict:
                continue
            if type(part.get("text")) is str:
                texts.append(part["text"])
            elif isinstance(part.get("tool_call"), dict):
                calls.append(_call(part["tool_call"]))
            elif isinstance(part.get("tool_call_result"), dict):
                results.append(_result(part["tool_call_result"]))
            elif not any(key in part for key in KNOWN_PARTS):
                label = ", ".join(sorted(part)) or "no keys"
                unknown[label] = unknown.get(label, 0) + 1
        text = content if isinstance(content, str) else "".join(texts)
        turns.append(Turn(position, role, text, None, tuple(calls), tuple(results), message))
    problems += [
        counted(count, f"content part with keys '{label}' not read", f"content parts with keys '{label}' not read")
        for label, count in unknown.items()
    ]
    return [Session(NAME, document.path, tuple(turns), (), document, 0, None, tuple(problems))]


def write(document: Document, sessions: list[Session]) -> str:
    """The file's text with the session's repaired turns; untouched messages are kept as they were."""
    session = sessions[0]
    messages = claimed_messages(document)
    keys = next(filter(None, (_keys(m) for m in messages if isinstance(m, dict))), CURRENT_KEYS)
    calls = {call.id: call for turn in session.turns for call in turn.tool_calls}

    def message(role: str, parts: list[dict[str, Any]]) -> dict[str, Any]:
        return {keys[0]: role, keys[2]: {}, keys[3]: None, keys[1]: parts}

    def render_new(turn: Turn) -> list[dict[str, Any]]:
        if turn.role == TOOL:
            return [
                message(
                    "tool",
                    [
                        {
                            "tool_call_result": {
                                "result": r.content if isinstance(r.content, str) else arguments_as_json(r.content),
                                "origin": _call_part(calls.get(r.call_id) or ToolCall(r.call_id, r.name or "", {}, {}))[
                                    "tool_call"
                                ],
                                "error": r.is_error,
                            }
                        }
                    ],
                )
                for r in turn.tool_results
            ]
        role = "assistant" if turn.role == ASSISTANT else "user"
        return [message(role, ([{"text": turn.text}] if turn.text else []) + [_call_part(c) for c in turn.tool_calls])]

    def render_edited(turn: Turn) -> dict[str, Any]:
        edited = dict(turn.raw)
        content = edited.get(keys[1])
        if not isinstance(content, list):  # a pre-2.9 string: it stays one unless the turn gained calls
            if not turn.tool_calls:
                edited[keys[1]] = turn.text
                return edited
            content = [{"text": content}] if isinstance(content, str) and content else []
        repaired = iter(turn.tool_calls)

        def with_call(part: Any) -> Any:
            if isinstance(part, dict) and isinstance(part.get("tool_call"), dict):
                call = next(repaired, None)
                stored = part["tool_call"]
                if call is not None and (
                    call.name != stored.get("tool_name") or call.arguments_raw is not stored.get("arguments")
                ):
                    return {**part, "tool_call": {**stored, "tool_name": call.name, "arguments": call.arguments or {}}}
            return part

        parts = respread_parts(content, is_text_part, turn.text, with_call)
        edited[keys[1]] = parts + [_call_part(call) for call in repaired]  # calls a repair gave the turn
        return edited

    rebuilt = rebuild_records(messages, session.turns, render_edited, render_new)
    value = document.value
    return document.render({**value, "messages": rebuilt} if isinstance(value, dict) else rebuilt)


def _keys(message: dict[str, Any]) -> tuple[str, str, str, str] | None:
    """The message's key style: `CURRENT_KEYS`, `OLD_KEYS`, or None when it is not Haystack's."""
    if "role" in message and "meta" in message and "content" in message:
        return CURRENT_KEYS
    if "_role" in message and "_content" in message:
        return OLD_KEYS
    return None


def _content(message: dict[str, Any], keys: tuple[str, ...] | None) -> Any:
    return message.get(keys[1]) if keys is not None else None


def _call(stored: dict[str, Any]) -> ToolCall:
    arguments = stored.get("arguments")
    name = stored.get("tool_name")
    return ToolCall(stored.get("id"), name if isinstance(name, str) else "", arguments, parse_arguments(arguments))


def _result(stored: dict[str, Any]) -> ToolResult:
    origin = stored.get("origin")
    if not isinstance(origin, dict):
        origin = {}
    result = stored.get("result")
    content = _text([p for p in result if isinstance(p, dict)]) if isinstance(result, list) else result
    name = origin.get("tool_name")
    return ToolResult(origin.get("id"), name if isinstance(name, str) else None, content, stored.get("error") is True)


def _call_part(call: ToolCall) -> dict[str, Any]:
    return {"tool_call": {"tool_name": call.name, "arguments": call.arguments or {}, "id": call.id, "extra": None}}


def _text(parts: list[dict[str, Any]]) -> str:
    return "".join(part["text"] for part in parts if is_text_part(part))


FORMAT = FileFormat(NAME, claims, read, write)
