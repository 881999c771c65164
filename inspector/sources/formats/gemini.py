"""Gemini sessions.

Shapes read: a request `{"contents": [...], "tools": [{"functionDeclarations": [...]}],
"systemInstruction"}`, a Gemini CLI checkpoint `{"history": [...]}`, and a bare list of contents.
Each content is `{role: "user"/"model", parts: [...]}` with parts `{text}` (`thought: true` marks
reasoning, not text), `{functionCall: {id?, name, args}}` and `{functionResponse: {id?, name,
response}}`. The snake_case spellings (`function_call`, `function_declarations`, ...) are read too,
and an edited part keeps the spelling it had.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from inspector.catalogue import parse_tool_definitions
from inspector.errors import InspectorError
from inspector.model import ASSISTANT, TOOL, USER, Session, ToolCall, ToolResult, Turn
from inspector.sources.files.document import Document
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.arguments import parse_arguments
from inspector.sources.messages.record_lists import rebuild_records
from inspector.sources.messages.text_parts import respread_parts
from inspector.support.safe_text import shown_name

NAME = "gemini"

ROLES = {"user": USER, "model": ASSISTANT, "function": TOOL}
LIST_KEYS = ("contents", "history")
CALL_KEYS = ("functionCall", "function_call")
RESPONSE_KEYS = ("functionResponse", "function_response")
# What only other formats with `parts` write (AI SDK UI messages, Pydantic AI), and the keys of a Gemini part.
FOREIGN_ROLES = frozenset({"assistant", "system", "tool", "developer"})
PART_KEYS = frozenset(
    {
        "text",
        "thought",
        "thoughtSignature",
        "thought_signature",
        "inlineData",
        "inline_data",
        "fileData",
        "file_data",
        "functionCall",
        "function_call",
        "functionResponse",
        "function_response",
        "executableCode",
        "executable_code",
        "codeExecutionResult",
        "code_execution_result",
        "videoMetadata",
        "video_metadata",
        "partMetadata",
        "part_metadata",
    }
)


def claims(document: Document) -> bool:
    """A contents list (alone, or under `contents` or `history`) whose records carry Gemini `parts`."""
    if document.is_jsonl:
        return False
    records = _contents(document.value)
    return records is not None and _looks_like_contents(records)


def read(document: Document) -> list[Session]:
    """The one session of the file."""
    value = document.value
    turns: list[Turn] = []
    problems: list[str] = []
    for position, content in enumerate(_claimed_contents(document)):
        if (
            not isinstance(content, dict)
            or not isinstance(content.get("parts"), list)
            or not _known_role(content.get("role", "user"))
        ):
            problems.append(f"message {position}: not a content with parts and a user or model role, skipped")
            continue
        turns.append(_turn(position, content))
    tools = parse_tool_definitions(value.get("tools")) if isinstance(value, dict) else []
    return [Session(NAME, document.path, tuple(turns), tuple(tools), document, 0, None, tuple(problems))]


def write(document: Document, sessions: list[Session]) -> str:
    """The file's text with the session's repaired turns; untouched contents are kept as they were."""
    value = document.value
    records = rebuild_records(_claimed_contents(document), sessions[0].turns, _render_edited, _render_new)
    if isinstance(value, list):
        return document.render(records)
    key = next(k for k in LIST_KEYS if isinstance(value.get(k), list))
    return document.render({**value, key: records})


def _claimed_contents(document: Document) -> list[Any]:
    """The contents of a file this format claimed (`_contents`); one `InspectorError` line for a
    file that holds none."""
    contents = _contents(document.value)
    if contents is None:
        raise InspectorError(f"{shown_name(document.path)}: holds no list of contents")
    return contents


def _contents(value: Any) -> list[Any] | None:
    if isinstance(value, list):
        return value
    if isinstance(value, dict):
        return next((value[k] for k in LIST_KEYS if isinstance(value.get(k), list)), None)
    return None


def _looks_like_contents(records: list[Any]) -> bool:
    """Most records carry `parts`, and nothing shows another format that also has `parts`:
    a role Gemini never writes (`assistant`, ...), a message `kind` (Pydantic AI), or a part
    typed by `type` / `part_kind` or holding none of Gemini's part keys (AI SDK UI messages)."""
    dicts = [r for r in records[:50] if isinstance(r, dict)]
    if not dicts or sum(isinstance(r.get("parts"), list) for r in dicts) * 2 <= len(dicts):
        return False
    return not any(
        (type(r.get("role")) is str and r["role"] in FOREIGN_ROLES) or "kind" in r or any(map(_foreign_part, _parts(r)))
        for r in dicts
    )


def _parts(record: dict[str, Any]) -> list[Any]:
    parts = record.get("parts")
    return parts[:50] if isinstance(parts, list) else []


def _foreign_part(part: Any) -> bool:
    """A part no Gemini content holds: one typed the way other formats type theirs, or an object
    with none of Gemini's part keys."""
    return isinstance(part, dict) and ("type" in part or "part_kind" in part or PART_KEYS.isdisjoint(part))


def _turn(position: int, content: dict[str, Any]) -> Turn:
    parts = [p for p in content["parts"] if isinstance(p, dict)]
    calls, results = [], []
    for part in parts:
        call = _field(part, CALL_KEYS)
        if call is not None and isinstance(call.get("name"), str):
            args = call.get("args")
            calls.append(ToolCall(call.get("id"), call["name"], args, parse_arguments(args)))
        response = _field(part, RESPONSE_KEYS)
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
    return Turn(position, role, _text(parts), None, tuple(calls), tuple(results), content)


def _field(part: dict[str, Any], keys: tuple[str, str]) -> dict[str, Any] | None:
    """The part's value under either spelling of a key, when it is an object."""
    for key in keys:
        value = part.get(key)
        if isinstance(value, dict):
            return value
    return None


def _is_text_part(part: Any) -> bool:
    return isinstance(part, dict) and isinstance(part.get("text"), str) and part.get("thought") is not True


def _render_edited(turn: Turn) -> dict[str, Any]:
    content = dict(turn.raw)
    parts = content["parts"]
    calls, results = iter(turn.tool_calls), iter(turn.tool_results)

    def repaired(part: Any) -> Any:
        return _with_result(_with_call(part, calls), results) if isinstance(part, dict) else part

    if turn.text == _text(parts):  # only calls or results changed: every text part stays as it was
        new_parts = [repaired(part) for part in parts]
    else:
        new_parts = respread_parts(parts, _is_text_part, turn.text, repaired)
    content["parts"] = new_parts + [_call_part(call) for call in calls]  # and any calls a repair gave it
    return content


def _with_call(part: dict[str, Any], calls: Iterator[ToolCall]) -> dict[str, Any]:
    """The part with its stored call (when it has one) under the call's name and arguments as
    repaired; the next of `calls` is its call, in the order `_turn` read them."""
    stored = _field(part, CALL_KEYS)
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
    stored = _field(part, RESPONSE_KEYS)
    if stored is None:
        return part
    result = next(results, None)
    if result is None or result.name is None or result.name == stored.get("name"):
        return part
    key = next(k for k in RESPONSE_KEYS if part.get(k) is stored)
    return {**part, key: {**stored, "name": result.name}}


def _text(parts: list[Any]) -> str:
    return "".join(part["text"] for part in parts if _is_text_part(part))


def _render_new(turn: Turn) -> list[dict[str, Any]]:
    if turn.role == TOOL:
        return [{"role": "user", "parts": [{"functionResponse": _response(result)} for result in turn.tool_results]}]
    parts: list[dict[str, Any]] = [{"text": turn.text}] if turn.text or not turn.tool_calls else []
    parts.extend(_call_part(call) for call in turn.tool_calls)
    return [{"role": "model" if turn.role == ASSISTANT else "user", "parts": parts}]


def _call_part(call: ToolCall) -> dict[str, Any]:
    body = {"id": call.id} if call.id else {}
    return {"functionCall": {**body, "name": call.name, "args": call.arguments or {}}}


def _response(result: ToolResult) -> dict[str, Any]:
    body = {"id": result.call_id} if result.call_id else {}
    response = result.content if isinstance(result.content, dict) else {"result": result.content}
    return {**body, "name": result.name, "response": response}


def _known_role(role: Any) -> bool:
    return isinstance(role, str) and role in ROLES


FORMAT = FileFormat(NAME, claims, read, write)
