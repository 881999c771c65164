"""Writing a repaired Copilot CLI event log the way the CLI writes one, so `copilot --resume` loads it.

A repaired message is its event with new `data.content` (a user message's `transformedContent`,
which ends with what the person typed, changes with it) and, for an assistant message, its
`toolRequests` with the corrected arguments or names (a request a repair did not touch is kept as
it was). A repaired result is its event with its `result.content` or `error.message` replaced.

Calls a repair recovers become what the CLI writes for a call: an `assistant.message` whose
`toolRequests` hold them, a `tool.execution_start` for each, then each call's
`tool.execution_complete` (`success: false` and the result as `error.message` for a result that is
an error, else `success: true` and `result.content`); a result added for an unanswered call is a
`tool.execution_complete` too. New events get fresh ids (derived from the event before them, never
one the file names), the timestamp of the event they stand before, and a subagent's `agentId`.
Every event names the one before it as its `parentId`: the event after the new ones is chained to
the last of them, its other fields as they were.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from itertools import chain
from typing import Any

from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, Session, ToolCall, ToolResult, Turn
from inspector.sources.formats._copilot_cli_events import RESULT, Event, agent_of
from inspector.sources.messages.arguments import parse_arguments
from inspector.sources.messages.record_lists import rebuild_records

_IDS = uuid.UUID("8f4c2a71-3b5d-4e9f-a6c8-1d2e3f4a5b6c")  # the namespace of the ids of new events
_MESSAGE_TYPES = {USER: "user.message", SYSTEM: "system.message", ASSISTANT: "assistant.message"}


def rebuilt_events(records: list[Any], sessions: list[Session]) -> list[Any]:
    """The log's records with every session's repaired turns, chained by `parentId`."""
    out = records
    for session in sessions:
        agent = next((agent_of(turn.raw) for turn in session.turns if turn.raw is not None), None)
        out = rebuild_records(out, session.turns, _edited, _renderer(agent))
    return _chained(records, out) if out is not records else out


def _renderer(agent: str | None) -> Callable[[Turn], list[Event]]:
    """How the turns a repair added to the thread of `agent` (None: the main one) are written."""
    return lambda turn: _new(turn, agent)


def _edited(turn: Turn) -> Event:
    event: Event = turn.raw
    data = dict(event["data"])
    if turn.role == TOOL:
        data.update(_result_data(turn.tool_results[0], data) if turn.tool_results else {})
        return {**event, "data": data}
    old = data.get("content")
    data["content"] = turn.text
    transformed = data.get("transformedContent")
    if type(old) is str and type(transformed) is str and transformed.endswith(old):
        data["transformedContent"] = transformed[: len(transformed) - len(old)] + turn.text
    if turn.role == ASSISTANT:
        data["toolRequests"] = _requests(data.get("toolRequests"), turn.tool_calls)
    return {**event, "data": data}


def _new(turn: Turn, agent: str | None) -> list[Event]:
    if turn.role == TOOL:
        return [_event(RESULT, _result_data(result, {}), agent) for result in turn.tool_results]
    data: Event = {"content": turn.text}
    if turn.role == ASSISTANT:
        seed = ",".join(str(call.id) for call in turn.tool_calls) + turn.text
        data = {"messageId": str(uuid.uuid5(_IDS, seed)), "content": turn.text}
        data["toolRequests"] = _requests(None, turn.tool_calls)
        if turn.model:
            data["model"] = turn.model
    elif turn.role == SYSTEM:
        data["role"] = "system"
    events = [_event(_MESSAGE_TYPES.get(turn.role, "user.message"), data, agent)]
    for call in turn.tool_calls:
        start = {"toolCallId": call.id, "toolName": call.name, "arguments": _arguments(call)}
        events.append(_event("tool.execution_start", start, agent))
    return events


def _event(kind: str, data: Event, agent: str | None) -> Event:
    """A new event; `_chained` gives it its id, timestamp and parent."""
    event: Event = {"type": kind, "data": data, "id": None, "timestamp": None, "parentId": None}
    if agent is not None:
        event["agentId"] = agent
    return event


def _requests(stored: Any, calls: tuple[ToolCall, ...]) -> list[Any]:
    """The tool requests of an assistant message holding `calls`: a stored request kept as it was
    unless a repair changed its call's name or arguments, a new one for a call it did not have."""
    by_id = {r.get("toolCallId"): r for r in stored if type(r) is dict} if type(stored) is list else {}
    requests: list[Any] = []
    for call in calls:
        request = by_id.get(call.id)
        if request is None:
            requests.append(
                {"toolCallId": call.id, "name": call.name, "arguments": _arguments(call), "type": "function"}
            )
        elif request.get("name") == call.name and (
            call.arguments is None or call.arguments_raw is request.get("arguments")
        ):
            requests.append(request)
        else:
            kept = request.get("arguments") if call.arguments is None else _arguments(call)
            requests.append({**request, "name": call.name, "arguments": kept})
    return requests


def _arguments(call: ToolCall) -> Any:
    """A call's arguments as the CLI stores them: an object (`{}` for text that is not one)."""
    if call.arguments is not None:
        return call.arguments
    parsed = parse_arguments(call.arguments_raw)
    return parsed if parsed is not None else {}


def _result_data(result: ToolResult, data: Event) -> Event:
    """The fields of a `tool.execution_complete` saying `result` (other stored fields kept)."""
    content = result.content if isinstance(result.content, str) else str(result.content)
    fields: Event = {"toolCallId": data.get("toolCallId", result.call_id), "success": not result.is_error}
    if result.is_error:
        error = data.get("error")
        fields["error"] = {**(error if type(error) is dict else {"code": "failure"}), "message": content}
    else:
        stored = data.get("result")
        fields["result"] = {**(stored if type(stored) is dict else {}), "content": content}
    return fields


def _chained(records: list[Any], out: list[Any]) -> list[Any]:
    """`out` with each new event given an id, a timestamp and its parent, and each event that
    followed its parent in the file chained to whatever now stands before it."""
    originals = {id(record) for record in records}
    before_in_file = {_id(record): _id(before) for before, record in zip([None, *records], records)}
    chained: list[Any] = []
    previous: str | None = None
    for index, record in enumerate(out):
        if id(record) not in originals and type(record) is dict and record.get("id") is None:
            seed = f"{previous}:{index}:{record.get('type')}"
            stamp = _near_timestamp(out, index)
            record = {**record, "id": str(uuid.uuid5(_IDS, seed)), "timestamp": stamp, "parentId": previous}
        elif _follows_in_file(record, before_in_file) and record.get("parentId") != previous:
            record = {**record, "parentId": previous}
        chained.append(record)
        previous = _id(record) or previous
    return chained


def _follows_in_file(record: Any, before_in_file: dict[str | None, str | None]) -> bool:
    """Whether an event names as its parent the event that stood before it in the file."""
    key = _id(record)
    return key is not None and record.get("parentId") == before_in_file.get(key)


def _near_timestamp(out: list[Any], index: int) -> Any:
    """The timestamp of the first event after `index` that has one, else of the last before it."""
    for near in chain(range(index + 1, len(out)), range(index - 1, -1, -1)):
        record = out[near]
        if type(record) is dict and type(record.get("timestamp")) is str:
            return record["timestamp"]
    return None


def _id(record: Any) -> str | None:
    value = record.get("id") if type(record) is dict else None
    return value if type(value) is str else None
