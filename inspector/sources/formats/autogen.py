"""AutoGen AgentChat 0.7 sessions: an agent's `save_state()` and a run's `TaskResult.messages`.

Shapes read:
- the state, `{"type": "AssistantAgentState", "llm_context": {"messages": [...]}}`: what the model
  was sent, `UserMessage` / `SystemMessage` (`content` a string, or a list of strings and images),
  `AssistantMessage` (`content` a string, or a list of calls `{id, name, arguments: <JSON text>}`
  with the reply's text in `thought`), `FunctionExecutionResultMessage` (`content` a list of
  `{call_id, name, content, is_error}`). AutoGen loads it back (`load_state`), so it is written:
  recovered calls become an `AssistantMessage` of calls and a `FunctionExecutionResultMessage`.
- the transcript, a JSON list of the messages and events `TaskResult.messages` holds, each
  `model_dump()`ed: `TextMessage` (a `source` of `user` is the user, any other an agent),
  `ThoughtEvent` (the text said with the calls), `ToolCallRequestEvent` (calls),
  `ToolCallExecutionEvent` (results). A `ToolCallSummaryMessage` only repeats the results as
  text: kept, not read. Other types are counted in the problems. A transcript is a log AutoGen
  does not load back, so it is not written (`fix` says so).

Positive markers: the state's `type`; a transcript's records all carry `type` and `source`
with at least one of the message types above.
"""

from __future__ import annotations

from typing import Any

from inspector.errors import InspectorError
from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, Session, ToolCall, ToolResult, Turn
from inspector.sources.files.document import Document
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.arguments import arguments_as_json, parse_arguments
from inspector.sources.messages.record_lists import rebuild_records
from inspector.support.counted_words import counted
from inspector.support.safe_text import shown_name

NAME = "autogen"

STATE_ROLES = {
    "UserMessage": USER,
    "SystemMessage": SYSTEM,
    "AssistantMessage": ASSISTANT,
    "FunctionExecutionResultMessage": TOOL,
}
TRANSCRIPT_TYPES = frozenset(
    {"TextMessage", "ThoughtEvent", "ToolCallRequestEvent", "ToolCallExecutionEvent", "ToolCallSummaryMessage"}
)
REPEATS = "ToolCallSummaryMessage"  # the results again, as text


def claims(document: Document) -> bool:
    """An `AssistantAgentState`, or a list of AgentChat messages and events."""
    return _state_messages(document) is not None or _is_transcript(document)


def read(document: Document) -> list[Session]:
    """The one conversation of the state or the transcript."""
    state = _state_messages(document)
    turns, problems = _read_state(state) if state is not None else _read_transcript(document.value)
    return [Session(NAME, document.path, tuple(turns), (), document, 0, None, tuple(problems))]


def write(document: Document, sessions: list[Session]) -> str:
    """The state's text with the repaired turns; a transcript only as it was (it is read-only)."""
    messages = _state_messages(document)
    if messages is None and not any(turn.raw is None or turn.edited for turn in sessions[0].turns):
        return document.render(document.value)
    if messages is None:
        raise InspectorError(
            f"{shown_name(document.path)}: an AutoGen TaskResult.messages transcript is read-only "
            "(AutoGen does not load it back); fix the agent's save_state() instead"
        )
    source = next(
        (
            m["source"]
            for m in messages
            if isinstance(m, dict) and m.get("type") == "AssistantMessage" and isinstance(m.get("source"), str)
        ),
        "assistant",
    )

    def render_new(turn: Turn) -> list[dict[str, Any]]:
        if turn.role == TOOL:
            return [
                {
                    "content": [
                        {
                            "content": r.content if isinstance(r.content, str) else arguments_as_json(r.content),
                            "name": r.name or "",
                            "call_id": r.call_id,
                            "is_error": r.is_error,
                        }
                        for r in turn.tool_results
                    ],
                    "type": "FunctionExecutionResultMessage",
                }
            ]
        if turn.role == ASSISTANT:
            content: Any = [_stored_call(call) for call in turn.tool_calls] if turn.tool_calls else turn.text
            thought = (turn.text or None) if turn.tool_calls else None
            return [{"content": content, "thought": thought, "source": source, "type": "AssistantMessage"}]
        return [{"content": turn.text, "source": "user", "type": "UserMessage"}]

    value = document.value
    rebuilt = rebuild_records(messages, sessions[0].turns, _render_edited, render_new)
    return document.render({**value, "llm_context": {**value["llm_context"], "messages": rebuilt}})


def _state_messages(document: Document) -> list[Any] | None:
    value = document.value
    if document.is_jsonl or not isinstance(value, dict) or value.get("type") != "AssistantAgentState":
        return None
    context = value.get("llm_context")
    messages = context.get("messages") if isinstance(context, dict) else None
    return messages if isinstance(messages, list) else None


def _is_transcript(document: Document) -> bool:
    value = document.value
    if document.is_jsonl or not isinstance(value, list):
        return False
    sample = value[:50]
    return (
        bool(sample)
        and all(isinstance(m, dict) and isinstance(m.get("type"), str) and "source" in m for m in sample)
        and any(m["type"] in TRANSCRIPT_TYPES for m in sample)
    )


def _read_state(messages: list[Any]) -> tuple[list[Turn], list[str]]:
    turns: list[Turn] = []
    problems: list[str] = []
    roles = STATE_ROLES
    for position, message in enumerate(messages):
        # The hot path of loading a large state: plain lookups, helpers only for calls and results.
        try:
            role = roles[message["type"]]
        except (KeyError, TypeError):  # no type, an unknown or unhashable one, or not an object at all
            problems.append(f"message {position}: not an LLM message of a known type, skipped")
            continue
        content = message.get("content")
        if role is TOOL:
            turns.append(Turn(position, role, "", None, (), _results(content), message))
        elif role is ASSISTANT and type(content) is list:
            thought = message.get("thought")
            turns.append(
                Turn(position, role, thought if type(thought) is str else "", None, _calls(content), (), message)
            )
        else:
            turns.append(
                Turn(position, role, content if type(content) is str else _text(content), None, (), (), message)
            )
    return turns, problems


def _read_transcript(records: list[Any]) -> tuple[list[Turn], list[str]]:
    turns: list[Turn] = []
    unread: dict[str, int] = {}
    for position, record in enumerate(records):
        kind = record.get("type") if isinstance(record, dict) else None
        content = record.get("content") if isinstance(record, dict) else None
        record_id = record.get("id") if isinstance(record, dict) else None
        record_id = record_id if isinstance(record_id, str) else None
        if kind in ("TextMessage", "ThoughtEvent") and isinstance(content, str):
            role = USER if record.get("source") == "user" else ASSISTANT
            turns.append(Turn(position, role, content, record_id, (), (), record))
        elif kind == "ToolCallRequestEvent" and isinstance(content, list):
            turns.append(Turn(position, ASSISTANT, "", record_id, _calls(content), (), record))
        elif kind == "ToolCallExecutionEvent" and isinstance(content, list):
            turns.append(Turn(position, TOOL, "", record_id, (), _results(content), record))
        elif kind != REPEATS:
            label = kind if isinstance(kind, str) else "unknown"
            unread[label] = unread.get(label, 0) + 1
    return turns, [
        counted(count, f"message of type '{kind}' not read as turns", f"messages of type '{kind}' not read as turns")
        for kind, count in unread.items()
    ]


def _calls(stored: list[Any]) -> tuple[ToolCall, ...]:
    calls = []
    for call in stored:
        name = call.get("name") if type(call) is dict else None
        if type(name) is str:
            raw = call.get("arguments")
            calls.append(ToolCall(call.get("id"), name, raw, parse_arguments(raw)))
    return tuple(calls)


def _results(stored: Any) -> tuple[ToolResult, ...]:
    results = []
    for result in stored if type(stored) is list else ():
        if type(result) is dict:
            name = result.get("name")
            results.append(
                ToolResult(
                    result.get("call_id"),
                    name if type(name) is str else None,
                    result.get("content"),
                    result.get("is_error") is True,
                )
            )
    return tuple(results)


def _text(content: Any) -> str:
    """A message's text: the string, or the strings of a multimodal list joined."""
    if isinstance(content, str):
        return content
    return "".join(part for part in content if isinstance(part, str)) if isinstance(content, list) else ""


def _stored_call(call: ToolCall) -> dict[str, Any]:
    return {
        "id": call.id,
        "arguments": arguments_as_json(call.arguments_raw if call.arguments_raw is not None else call.arguments or {}),
        "name": call.name,
    }


def _render_edited(turn: Turn) -> dict[str, Any]:
    message = dict(turn.raw)
    content = message.get("content")
    if turn.role == TOOL:  # only the names of results answering a renamed call change
        names = {result.call_id: result.name for result in turn.tool_results if result.name}
        message["content"] = (
            [
                {**stored, "name": names[stored.get("call_id")]}
                if isinstance(stored, dict)
                and names.get(stored.get("call_id"), stored.get("name")) != stored.get("name")
                else stored
                for stored in content
            ]
            if isinstance(content, list)
            else content
        )
        return message
    if turn.role != ASSISTANT or (not turn.tool_calls and not isinstance(content, list)):
        if isinstance(content, str) or turn.text:
            message["content"] = turn.text
        return message
    repaired = iter(turn.tool_calls)
    calls = []
    for stored in content if isinstance(content, list) else []:
        if isinstance(stored, dict) and isinstance(stored.get("name"), str):
            call = next(repaired, None)
            if call is not None and (call.arguments_raw is not stored.get("arguments") or call.name != stored["name"]):
                stored = {**stored, "name": call.name, "arguments": arguments_as_json(call.arguments_raw)}
        calls.append(stored)
    message["content"] = calls + [_stored_call(call) for call in repaired]  # and calls a repair gave the turn
    was = message["thought"] if isinstance(message.get("thought"), str) and isinstance(content, list) else ""
    if turn.text != was:  # the text said with calls is their `thought`
        message["thought"] = turn.text or None
    return message


FORMAT = FileFormat(NAME, claims, read, write)
