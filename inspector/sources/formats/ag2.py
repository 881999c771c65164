"""AG2 (formerly AutoGen 0.2) chat histories: `ChatResult.chat_history` or an agent's `chat_messages`.

Shape read: a JSON list of OpenAI-style messages (or a dumped `ChatResult` object holding it as
`chat_history`) whose tool results come as one message per executed batch:
`{"role": "tool", "content": <the results joined>, "tool_responses": [{"tool_call_id", "role":
"tool", "content"}], "name": <executor>}`, with no top-level `tool_call_id`. Each `tool_responses`
entry is read as one result, linked to its call by id (the joined `content` is only a copy).
Calls are OpenAI `tool_calls` (arguments a JSON string, kept as written) or the legacy
`function_call`; a message with calls always has role `assistant` and no `name`.

AG2 writes a history from one agent's point of view: in the initiator's `chat_history` the
initiator's own messages have role `assistant` and the other agent's replies role `user`.
When the agent that executes the tools (the `name` on the tool messages) is the one whose
text messages say `assistant`, the view is the executor's: its messages are read as the user
and the other agent's as the model's, and written back with the roles they had.

Positive marker: a `tool_responses` list in some message. AG2 loads these histories back (as a
chat's `messages`, or `chat_messages` to resume), so the format is written: untouched messages
stay as they were, recovered calls become an `assistant` message with `tool_calls` and their
"not executed" results a `tool` message with `tool_responses`, as AG2 itself writes them.
"""

from __future__ import annotations

from typing import Any

from inspector.catalogue import parse_tool_definitions
from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, Session, ToolResult, Turn
from inspector.sources.files.document import Document
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.arguments import arguments_as_json
from inspector.sources.messages.message_list import claimed_messages, message_list
from inspector.sources.messages.openai_calls import render_tool_calls
from inspector.sources.messages.openai_messages import message_calls, render_edited_message
from inspector.sources.messages.record_lists import rebuild_records
from inspector.sources.messages.text_parts import content_text

NAME = "ag2"

ROLES = {"system": SYSTEM, "user": USER, "assistant": ASSISTANT, "tool": TOOL, "function": TOOL}
FLIPPED = {"system": SYSTEM, "user": ASSISTANT, "assistant": USER, "tool": TOOL, "function": TOOL}


def claims(document: Document) -> bool:
    """A message list (alone or as a `ChatResult`'s `chat_history`) with a `tool_responses` list."""
    messages = message_list(document, "chat_history")
    return messages is not None and any(
        isinstance(m, dict) and isinstance(m.get("tool_responses"), list) and isinstance(m.get("role"), str)
        for m in messages
    )


def read(document: Document) -> list[Session]:
    """The one conversation of the file."""
    messages = claimed_messages(document, "chat_history")
    roles = FLIPPED if _executor_view(messages) else ROLES
    turns: list[Turn] = []
    problems: list[str] = []
    names: dict[str | None, str] = {}  # a call's id -> its name (a result without an id finds none)
    for position, message in enumerate(messages):
        # The hot path of loading a large history: plain lookups, helpers only for calls and results.
        try:
            role = roles[message["role"]]
        except (KeyError, TypeError):  # no role, an unknown or unhashable one, or not an object at all
            problems.append(f"message {position}: not a message with a known role, skipped")
            continue
        content = message.get("content")
        text = content if type(content) is str else content_text(content)
        calls = message_calls(message) if "tool_calls" in message or "function_call" in message else ()
        if calls:
            role = ASSISTANT  # AG2 forces the role of a message with calls
            for call in calls:
                if type(call.id) is str:
                    names[call.id] = call.name
        results = _results(message, names) if role == TOOL else ()
        message_id = message.get("id")
        turns.append(
            Turn(position, role, text, message_id if type(message_id) is str else None, calls, results, message)
        )
    value = document.value
    tools = value.get("tools") if isinstance(value, dict) else None
    return [
        Session(
            NAME, document.path, tuple(turns), tuple(parse_tool_definitions(tools)), document, 0, None, tuple(problems)
        )
    ]


def write(document: Document, sessions: list[Session]) -> str:
    """The file's text with the session's repaired turns; untouched messages are kept as they were."""
    session = sessions[0]
    messages = claimed_messages(document, "chat_history")
    flipped = _executor_view(messages)
    executor = next(
        (
            m["name"]
            for m in messages
            if isinstance(m, dict) and m.get("role") == "tool" and isinstance(m.get("name"), str)
        ),
        None,
    )
    model = next(
        (
            m["name"]
            for m in messages
            if isinstance(m, dict)
            and m.get("role") == ("user" if flipped else "assistant")
            and isinstance(m.get("name"), str)
            and not m.get("tool_calls")
        ),
        None,
    )

    def render_new(turn: Turn) -> list[dict[str, Any]]:
        if turn.role == TOOL:
            responses: list[dict[str, Any]] = [
                {"tool_call_id": r.call_id, "role": "tool", "content": _as_text(r.content)} for r in turn.tool_results
            ]
            message = {
                "content": "\n\n".join(r["content"] for r in responses),
                "tool_responses": responses,
                "role": "tool",
            }
            return [{**message, "name": executor} if executor else message]
        if turn.tool_calls:
            return [
                {"content": turn.text or None, "tool_calls": render_tool_calls(turn.tool_calls), "role": "assistant"}
            ]
        message = {"content": turn.text, "role": "user" if flipped else "assistant"}
        return [{**message, "name": model} if model else message]

    rebuilt = rebuild_records(messages, session.turns, _render_edited, render_new)
    value = document.value
    return document.render({**value, "chat_history": rebuilt} if isinstance(value, dict) else rebuilt)


def _executor_view(messages: list[Any]) -> bool:
    """Whether the history is the tool executor's view: the agent that runs the tools is the one
    whose own text messages have role `assistant` (and none of its messages role `user`)."""
    named: dict[str, set[str]] = {"tool": set(), "user": set(), "assistant": set()}
    for message in messages:
        name = message.get("name") if type(message) is dict else None
        if type(name) is str and "tool_calls" not in message:
            seen = named.get(message.get("role"))
            if seen is not None:
                seen.add(name)
    return bool(named["tool"] & named["assistant"]) and not named["tool"] & named["user"]


def _results(message: dict[str, Any], names: dict[str | None, str]) -> tuple[ToolResult, ...]:
    """Each `tool_responses` entry as a result; a plain OpenAI tool or function message as one."""
    responses = message.get("tool_responses")
    if isinstance(responses, list):
        return tuple(
            ToolResult(r.get("tool_call_id"), names.get(r.get("tool_call_id")), r.get("content"))
            for r in responses
            if isinstance(r, dict)
        )
    call_id = message.get("tool_call_id")
    name = message.get("name") if message.get("role") == "function" else names.get(call_id)
    return (ToolResult(call_id, name, message.get("content")),)


def _render_edited(turn: Turn) -> dict[str, Any]:
    message = render_edited_message(turn, name_results=False)  # AG2 names a message after its agent
    if len(turn.tool_calls) > len(message_calls(turn.raw)):  # a repair gave this turn calls
        message["role"] = "assistant"  # as AG2 writes a message with calls: role assistant, no name
        message.pop("name", None)
    return message


def _as_text(content: Any) -> str:
    return content if isinstance(content, str) else arguments_as_json(content)


FORMAT = FileFormat(NAME, claims, read, write)
