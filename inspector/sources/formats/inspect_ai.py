"""Inspect AI evaluation logs, read-only: the legacy `.json` log and the `.eval` archive
(`inspect_eval` turns one into a `Document` of the same shape).

Shape read: `{version, eval: {task, model, ...}, plan, results, samples: [...]}`; each sample is a
session (id `<sample id>/epoch <n>`) whose `messages` are near OpenAI's: `{role: system | user |
assistant | tool, content: str | [{type: text, text} | {type: reasoning, reasoning} | ...],
tool_calls: [{id, function, arguments: {}, parse_error}], tool_call_id, function, error: {type,
message}}`. A text too long for the log is stored once in the sample's `attachments` and named
`attachment://<hash>` in its place; it is read back from there.

A call whose arguments the harness could not parse is stored with `arguments: {}` and a
`parse_error` that quotes the raw text ("Error parsing the following tool call arguments:\\n\\n
RAW\\n\\nError details: ..."): that raw text is read as the call's `arguments_raw`, so
`malformed-arguments` flags it, and its tool message (`error.type == "parsing"`) is an error
result showing the harness's error. Inspect loads these logs for viewing and scoring, not as a
history to resume, so the format is read-only (it has no writer).
"""

from __future__ import annotations

from typing import Any

from inspector.catalogue import parse_tool_definitions
from inspector.errors import InspectorError
from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, Session, ToolCall, ToolResult, ToolSpec, Turn
from inspector.sources.files.document import Document
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.arguments import parse_arguments
from inspector.support.counted_words import counted
from inspector.support.safe_text import shown_name

NAME = "inspect-ai"

ROLES = {"system": SYSTEM, "user": USER, "assistant": ASSISTANT, "tool": TOOL}
_ATTACHMENT = "attachment://"
_RAW_START = "arguments:\n\n"
_RAW_END = "\n\nError details:"


def claims(document: Document) -> bool:
    """An object with Inspect's `eval` spec (a task and a model) beside a `samples` list."""
    value = document.value
    if document.is_jsonl or not isinstance(value, dict):
        return False
    spec = value.get("eval")
    return (
        isinstance(spec, dict)
        and "task" in spec
        and "model" in spec
        and isinstance(value.get("samples", []), list)
        and ("version" in value or "plan" in value)
    )


def read(document: Document) -> list[Session]:
    """One session per sample (and epoch)."""
    tools = _tools(document.value)
    samples = document.value.get("samples") or []
    sessions = [
        _session(document, index, sample, tools) for index, sample in enumerate(samples) if isinstance(sample, dict)
    ]
    if not sessions:
        raise InspectorError(f"{shown_name(document.path)}: an Inspect AI log without samples (a header only?)")
    return sessions


def _session(document: Document, index: int, sample: dict[str, Any], tools: tuple[ToolSpec, ...]) -> Session:
    attachments = sample.get("attachments")
    if not isinstance(attachments, dict):
        attachments = {}
    messages = sample.get("messages")
    problems: list[str] = [] if isinstance(messages, list) else ["its messages are not a list, skipped"]
    turns: list[Turn] = []
    names: dict[str | None, str] = {}  # a call's id -> its name (a result without an id finds none)
    skipped = 0
    for position, message in enumerate(messages if isinstance(messages, list) else []):
        if not isinstance(message, dict) or type(message.get("role")) is not str or message["role"] not in ROLES:
            skipped += 1
            continue
        turns.append(_turn(position, message, attachments, names))
    if skipped:
        problems.append(
            counted(
                skipped,
                "message without a system, user, assistant or tool role, not read as turns",
                "messages without a system, user, assistant or tool role, not read as turns",
            )
        )
    session_id = f"{sample.get('id')}/epoch {sample.get('epoch', 1)}"
    return Session(NAME, document.path, tuple(turns), tools, document, index, session_id, tuple(problems))


def _turn(position: int, message: dict[str, Any], attachments: dict[str, Any], names: dict[str | None, str]) -> Turn:
    role = ROLES[message["role"]]
    text = _text(message.get("content"), attachments)
    calls = tuple(
        _call(call, attachments)
        for call in message.get("tool_calls") or ()
        if isinstance(call, dict) and isinstance(call.get("function"), str)
    )
    names.update((call.id, call.name) for call in calls if isinstance(call.id, str))
    results: tuple[ToolResult, ...] = ()
    if role == TOOL:
        call_id = message.get("tool_call_id")
        error = message.get("error")
        content: Any = text
        if isinstance(error, dict):
            content = f"{error.get('type', 'error')}: {_resolved(error.get('message'), attachments)}"
        name = message.get("function")
        if not isinstance(name, str):
            name = names.get(call_id)
        results = (ToolResult(call_id, name, content, isinstance(error, dict)),)
    message_id = message.get("id")
    return Turn(position, role, text, message_id if type(message_id) is str else None, calls, results, message)


def _call(call: dict[str, Any], attachments: dict[str, Any]) -> ToolCall:
    """One stored call; a call the harness could not parse carries its raw text as `arguments_raw`."""
    parse_error = call.get("parse_error")
    if isinstance(parse_error, str) and parse_error:
        raw = raw_arguments(_resolved(parse_error, attachments))
        return ToolCall(call.get("id"), call["function"], raw, parse_arguments(raw))
    arguments = call.get("arguments")
    return ToolCall(call.get("id"), call["function"], arguments, parse_arguments(arguments))


def raw_arguments(parse_error: str) -> str:
    """The raw argument text a `parse_error` quotes, or the whole error when it quotes none (so
    the call is still flagged, with the harness's words)."""
    start = parse_error.find(_RAW_START)
    end = parse_error.rfind(_RAW_END)
    if start < 0 or end < start + len(_RAW_START):
        return parse_error
    return parse_error[start + len(_RAW_START) : end]


def _text(content: Any, attachments: dict[str, Any]) -> str:
    if isinstance(content, str):
        return _resolved(content, attachments)
    if isinstance(content, list):
        return "".join(
            _resolved(part["text"], attachments)
            for part in content
            if isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str)
        )
    return ""


def _resolved(value: Any, attachments: dict[str, Any]) -> str:
    """A text, read from the sample's attachments when the log stored it there."""
    if not isinstance(value, str):
        return "" if value is None else str(value)
    if value.startswith(_ATTACHMENT):
        stored = attachments.get(value[len(_ATTACHMENT) :])
        if isinstance(stored, str):
            return stored
    return value


def _tools(value: dict[str, Any]) -> tuple[ToolSpec, ...]:
    """The tools of the first `model` event of the samples (`ToolInfo`s); none when none has one."""
    for sample in value.get("samples") or ():
        for event in (sample.get("events") or ()) if isinstance(sample, dict) else ():
            if isinstance(event, dict) and event.get("event") == "model" and isinstance(event.get("tools"), list):
                return tuple(parse_tool_definitions(_openai_tools(event["tools"])))
    return ()


def _openai_tools(tools: list[Any]) -> list[dict[str, Any]]:
    """Inspect's `ToolInfo`s (`{name, description, parameters}`) in OpenAI's tool shape."""
    return [{"type": "function", "function": tool} for tool in tools if isinstance(tool, dict)]


FORMAT = FileFormat(NAME, claims, read)
