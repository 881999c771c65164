"""OpenAI Chat Completions messages (`{role, content, tool_calls | function_call, tool_call_id,
name}`): a message read as a turn, its calls, and an edited turn written back as its message.

Used by the formats that store OpenAI messages: `openai` and `ag2` (`message_calls`,
`render_edited_message`), `litellm` and `langfuse` (`read_openai_messages`, `openai_turn`: the
messages a log of model calls repeats).
"""

from __future__ import annotations

from typing import Any

from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, ToolCall, ToolResult, Turn
from inspector.sources.messages.arguments import parse_arguments
from inspector.sources.messages.openai_calls import (
    read_tool_calls,
    render_tool_calls,
    repaired_function,
    with_repaired_calls,
)
from inspector.sources.messages.text_parts import content_text, is_text_part, respread_parts
from inspector.support.counted_words import counted

ROLES = {"system": SYSTEM, "developer": SYSTEM, "user": USER, "assistant": ASSISTANT, "tool": TOOL, "function": TOOL}

UNREAD_MESSAGES = (  # what one and several are called
    "message without a known role not read as turns",
    "messages without a known role not read as turns",
)


def message_calls(message: dict[str, Any]) -> tuple[ToolCall, ...]:
    """A message's calls: its `tool_calls`, then a legacy `function_call` (which has no id)."""
    calls = read_tool_calls(message.get("tool_calls"))
    legacy = message.get("function_call")
    if isinstance(legacy, dict) and isinstance(legacy.get("name"), str):
        raw = legacy.get("arguments")
        calls += (ToolCall(None, legacy["name"], raw, parse_arguments(raw)),)
    return calls


def render_edited_message(turn: Turn, name_results: bool = True) -> dict[str, Any]:
    """The stored message of an edited turn: its text respread over its parts, its calls repaired,
    the calls a repair gave it added; with `name_results`, a message naming its result's tool
    (`function`, a named `tool`) takes the name a renamed call gave the result."""
    message = dict(turn.raw)
    content = message.get("content")
    if turn.text != content_text(content):  # else only calls or results changed: the content stays as it was
        if isinstance(content, list):
            message["content"] = respread_parts(content, is_text_part, turn.text)
        elif content is not None or turn.text:
            message["content"] = turn.text
    if (
        name_results
        and turn.tool_results
        and isinstance(message.get("name"), str)
        and turn.tool_results[0].name is not None
    ):
        message["name"] = turn.tool_results[0].name  # a `function` message (or a `tool` one naming its tool)
    if isinstance(message.get("tool_calls"), list):
        message["tool_calls"] = with_repaired_calls(message["tool_calls"], turn.tool_calls)
    legacy = message.get("function_call")
    if isinstance(legacy, dict) and isinstance(legacy.get("name"), str) and turn.tool_calls:
        message["function_call"] = repaired_function(legacy, turn.tool_calls[-1])  # read as the last call
    added = turn.tool_calls[len(message_calls(turn.raw)) :]  # calls a repair gave this turn
    if added:
        message["tool_calls"] = list(message.get("tool_calls") or []) + render_tool_calls(added)
        if not turn.text and not isinstance(content, list):
            message["content"] = None
    return message


def read_openai_messages(messages: list[Any]) -> tuple[list[Turn], list[str]]:
    """OpenAI Chat Completions messages as turns (a result named after its call), and a problem
    line for the records that are no message with a known role."""
    turns: list[Turn] = []
    names: dict[Any, str] = {}
    for position, message in enumerate(messages):
        turn = openai_turn(position, message, names)
        if turn is not None:
            turns.append(turn)
    unread = len(messages) - len(turns)
    problems = [counted(unread, *UNREAD_MESSAGES)] if unread else []
    return turns, problems


def openai_turn(position: int, message: Any, names: dict[Any, str]) -> Turn | None:
    """One OpenAI Chat Completions message as a turn, or None when it has no known role; `names`
    (call id -> tool name) learns its calls and names its result."""
    role = ROLES.get(message["role"]) if type(message) is dict and type(message.get("role")) is str else None
    if role is None:
        return None
    content = message.get("content")
    text = content if type(content) is str else _text(content)
    calls = read_tool_calls(message.get("tool_calls")) if role == ASSISTANT else ()
    names.update((call.id, call.name) for call in calls if type(call.id) is str)
    results: tuple[ToolResult, ...] = ()
    if role == TOOL:
        call_id = message.get("tool_call_id")
        name = (
            message.get("name")
            if type(message.get("name")) is str
            else names.get(call_id)
            if type(call_id) is str
            else None
        )
        results = (ToolResult(call_id, name, content),)
    message_id = message.get("id")
    return Turn(position, role, text, message_id if type(message_id) is str else None, calls, results, message)


def _text(content: Any) -> str:
    """The text of a list content: its `text` parts."""
    if not isinstance(content, list):
        return ""
    return "".join(part["text"] for part in content if type(part) is dict and type(part.get("text")) is str)
