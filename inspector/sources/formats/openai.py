"""OpenAI Chat Completions sessions.

Shapes read: `{"messages": [...], "tools": [...]}`, a bare list of messages, JSON Lines with one
message per line, and fine-tuning JSON Lines with one `{"messages", "tools"}` example per line
(each line a session). Content may be a string, a list of parts or null; calls are `tool_calls`
or the legacy `function_call`; results are `tool` or legacy `function` messages.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from inspector.catalogue import parse_tool_definitions
from inspector.model import TOOL, Session, ToolResult, Turn
from inspector.sources.files.document import BadLine, Document, records_with_errors
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.arguments import arguments_as_json
from inspector.sources.messages.openai_calls import (
    render_tool_calls,
)
from inspector.sources.messages.openai_messages import ROLES, message_calls, render_edited_message
from inspector.sources.messages.record_lists import rebuild_records
from inspector.sources.messages.text_parts import content_text

NAME = "openai"


def claims(document: Document) -> bool:
    """A messages list (alone, in an object, or one per line) whose records carry OpenAI roles."""
    value = document.value
    if document.is_jsonl:
        records = [r for r in value if isinstance(r, dict)]
        return bool(records) and (_are_examples(records) or _looks_like_messages(records))
    if isinstance(value, dict):
        return isinstance(value.get("messages"), list) and _looks_like_messages(value["messages"])
    return isinstance(value, list) and _looks_like_messages(value)


def read(document: Document) -> list[Session]:
    """One session per file, or one per line for fine-tuning JSON Lines."""
    value = document.value
    if document.is_jsonl and all(_is_example(r) for r in value if isinstance(r, dict)):
        sessions = []
        for index, record in enumerate(value):
            if isinstance(record, dict):
                sessions.append(
                    _session(
                        document,
                        record["messages"],
                        record.get("tools") or record.get("functions"),
                        index=index,
                        session_id=f"line {index + 1}",
                    )
                )
        if sessions:  # the lines that are not JSON: reported on the first session, written back as they were
            sessions[0] = replace(
                sessions[0], problems=tuple(records_with_errors(value, kept=True)) + sessions[0].problems
            )
        return sessions
    if document.is_jsonl:
        session = _session(document, value, None)
        extra = tuple(records_with_errors(value))
        return [replace(session, problems=extra + session.problems)]
    if isinstance(value, dict):
        return [_session(document, value["messages"], value.get("tools") or value.get("functions"))]
    return [_session(document, value, None)]


def write(document: Document, sessions: list[Session]) -> bytes:
    """The file's bytes with each session's repaired turns; untouched records are kept as they were
    (in a JSON document, copied from the bytes read: `Document.render_bytes`)."""
    value = document.value
    if document.is_jsonl and all(_is_example(r) for r in value if isinstance(r, dict)):
        by_index = {s.index: s for s in sessions}
        records = []
        for index, record in enumerate(value):
            session = by_index.get(index)
            if session is None or not _changed(session):
                records.append(record)
            else:
                records.append({**record, "messages": _rebuild(record["messages"], session)})
        return document.render_bytes(records)
    session = sessions[0]
    if document.is_jsonl:
        return document.render_bytes(_rebuild(value, session))
    if isinstance(value, dict):
        return document.render_bytes({**value, "messages": _rebuild(value["messages"], session)})
    return document.render_bytes(_rebuild(value, session))


def _session(document: Document, messages: Any, tools: Any, index: int = 0, session_id: str | None = None) -> Session:
    turns: list[Turn] = []
    problems: list[str] = [] if isinstance(messages, list) else ["its messages are not a list, skipped"]
    roles = ROLES
    for position, message in enumerate(messages if isinstance(messages, list) else []):
        # The hot path of loading a large file: one pass, plain lookups, no helper call per message.
        try:
            role = roles[message["role"]]
        except (KeyError, TypeError):  # no role, an unknown or unhashable one, or not an object at all
            if message is not None and not isinstance(message, BadLine):
                problems.append(f"message {position}: not a message with a known role, skipped")
            continue
        content = message.get("content")
        text = content if type(content) is str else content_text(content)
        calls = message_calls(message) if "tool_calls" in message or "function_call" in message else ()
        results = (ToolResult(message.get("tool_call_id"), message.get("name"), content),) if role == TOOL else ()
        message_id = message.get("id")
        turns.append(
            Turn(position, role, text, message_id if type(message_id) is str else None, calls, results, message)
        )
    return Session(
        NAME,
        document.path,
        tuple(turns),
        tuple(parse_tool_definitions(tools)),
        document,
        index,
        session_id,
        tuple(problems),
    )


def _rebuild(messages: list[Any], session: Session) -> list[Any]:
    return rebuild_records(messages, session.turns, render_edited_message, _render_new)


def _changed(session: Session) -> bool:
    return any(turn.raw is None or turn.edited for turn in session.turns)


def _render_new(turn: Turn) -> list[dict[str, Any]]:
    if turn.role == TOOL:
        return [
            {"role": "tool", "tool_call_id": result.call_id, "content": _as_text(result.content)}
            for result in turn.tool_results
        ]
    message: dict[str, Any] = {"role": turn.role, "content": turn.text or None}
    if turn.tool_calls:
        message["tool_calls"] = render_tool_calls(turn.tool_calls)
    return [message]


def _as_text(content: Any) -> str:
    return content if isinstance(content, str) else arguments_as_json(content)


def _is_example(record: Any) -> bool:
    """A fine-tuning example: messages (a list, or an odd value reported as its problem), no role."""
    return isinstance(record, dict) and "messages" in record and "role" not in record


def _are_examples(records: list[dict[str, Any]]) -> bool:
    return all(_is_example(r) for r in records) and any(isinstance(r["messages"], list) for r in records)


def _looks_like_messages(records: list[Any]) -> bool:
    dicts = [r for r in records[:50] if isinstance(r, dict)]
    return bool(dicts) and sum(isinstance(r.get("role"), str) and r["role"] in ROLES for r in dicts) * 2 > len(dicts)


FORMAT = FileFormat(NAME, claims, read, write, copies_bytes=True)
