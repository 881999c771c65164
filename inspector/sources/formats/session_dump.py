"""Agent session dumps (the shape of an agent harness's `/api/session/<id>/dump`).

Shape read: `{"session_id", "dumped_at", "entry_count", "entries": [...]}`. Each entry has a
`role` and/or a `node_type` (system, user, turn_input, turn_output, tool_result, follow_up, ...),
`content` (a string or any JSON value), OpenAI-style `tool_calls`, and any number of other keys
(timestamps, trace ids, tokens, cost, metadata), all of which survive a round trip. Tool-result
entries name their call with `tool_call_id` and their tool with `name` or `tool_name`.
"""

from __future__ import annotations

import json
from typing import Any

from inspector.catalogue import parse_tool_definitions
from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, Session, ToolResult, Turn
from inspector.sources.files.document import Document
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.openai_calls import read_tool_calls, render_tool_calls, with_repaired_calls
from inspector.sources.messages.record_lists import rebuild_records

NAME = "session-dump"

ROLES = {
    "system": SYSTEM,
    "developer": SYSTEM,
    "user": USER,
    "assistant": ASSISTANT,
    "model": ASSISTANT,
    "tool": TOOL,
    "function": TOOL,
}
NODE_ROLES = {"tool_result": TOOL, "turn_output": ASSISTANT, "system": SYSTEM}
INSERTED = {"inserted_by": "inspector"}


def claims(document: Document) -> bool:
    """An object with an `entries` list and a `session_id`."""
    value = document.value
    return (
        not document.is_jsonl
        and isinstance(value, dict)
        and isinstance(value.get("entries"), list)
        and "session_id" in value
    )


def read(document: Document) -> list[Session]:
    """The one session of the dump."""
    value = document.value
    turns: list[Turn] = []
    problems: list[str] = []
    for position, entry in enumerate(value["entries"]):
        role = _role(entry)
        if role is None:
            problems.append(f"entry {position}: not an entry with a known role or node_type, skipped")
            continue
        turns.append(_turn(position, role, entry))
    session_id = value.get("session_id")
    return [
        Session(
            NAME,
            document.path,
            tuple(turns),
            tuple(parse_tool_definitions(value.get("tools"))),
            document,
            0,
            None if session_id is None else str(session_id),
            tuple(problems),
        )
    ]


def write(document: Document, sessions: list[Session]) -> str:
    """The dump's text with the session's repaired turns, and `entry_count` kept true."""
    value = document.value
    entries = rebuild_records(value["entries"], sessions[0].turns, _render_edited, _render_new)
    out = {**value, "entries": entries}
    if "entry_count" in out and len(entries) != len(value["entries"]):
        out["entry_count"] = len(entries)
    return document.render(out)


def _role(entry: Any) -> str | None:
    """The entry's role, from `role`, else from `node_type` when there is no `role` at all."""
    if not isinstance(entry, dict):
        return None
    role = entry.get("role")
    if role is not None:
        return ROLES.get(role) if isinstance(role, str) else None
    node_type = entry.get("node_type")
    return NODE_ROLES.get(node_type, USER) if isinstance(node_type, str) else None


def _turn(position: int, role: str, entry: dict[str, Any]) -> Turn:
    content = entry.get("content")
    calls = read_tool_calls(entry.get("tool_calls"))
    results: tuple[ToolResult, ...] = ()
    if role == TOOL:
        results = (
            ToolResult(entry.get("tool_call_id"), entry.get(_name_key(entry)), content, entry.get("is_error") is True),
        )
    entry_id = entry.get("id")
    return Turn(position, role, _text(content), entry_id if isinstance(entry_id, str) else None, calls, results, entry)


def _text(content: Any) -> str:
    return (content or "") if content is None or isinstance(content, str) else json.dumps(content, ensure_ascii=False)


def _name_key(entry: dict[str, Any]) -> str:
    """Where a tool-result entry names its tool: `name` when that is a string, else `tool_name`."""
    return "name" if isinstance(entry.get("name"), str) else "tool_name"


def _render_edited(turn: Turn) -> dict[str, Any]:
    entry = dict(turn.raw)
    content = entry.get("content")
    if turn.text != _text(content):  # else only calls or results changed: the content stays as it was
        entry["content"] = turn.text if content is None or isinstance(content, str) else _structured(turn.text)
    key = _name_key(entry)
    if turn.tool_results and isinstance(entry.get(key), str) and turn.tool_results[0].name is not None:
        entry[key] = turn.tool_results[0].name  # the tool a renamed call now calls
    stored = entry.get("tool_calls")
    if isinstance(stored, list):
        entry["tool_calls"] = with_repaired_calls(stored, turn.tool_calls)
    added = turn.tool_calls[len(read_tool_calls(stored)) :]  # calls a repair gave this turn
    if added:
        entry["tool_calls"] = list(entry.get("tool_calls") or []) + render_tool_calls(added)
    return entry


def _structured(text: str) -> Any:
    """Edited text for content that was a JSON value: the value again when it still parses."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return text


def _render_new(turn: Turn) -> list[dict[str, Any]]:
    if turn.role == TOOL:
        return [
            {
                "role": "tool",
                "node_type": "tool_result",
                "tool_call_id": result.call_id,
                "name": result.name,
                "content": result.content,
                "metadata": dict(INSERTED),
            }
            for result in turn.tool_results
        ]
    entry: dict[str, Any] = {
        "role": turn.role,
        "node_type": "turn_output" if turn.role == ASSISTANT else turn.role,
        "content": turn.text,
    }
    if turn.tool_calls:
        entry["tool_calls"] = render_tool_calls(turn.tool_calls)
    entry["metadata"] = dict(INSERTED)
    return [entry]


FORMAT = FileFormat(NAME, claims, read, write)
