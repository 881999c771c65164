"""The parts of a Continue CLI history item that reading and writing share: an assistant
message's OpenAI `toolCalls`, the item's `toolCallStates` (where the results live) and what a
state's `output` says."""

from __future__ import annotations

from typing import Any

ERROR_STATUSES = frozenset({"errored", "canceled"})  # the states whose output is an error


def stored_calls(message: dict[str, Any]) -> list[dict[str, Any]]:
    """The OpenAI calls of a message (its `toolCalls` that are objects)."""
    calls = message.get("toolCalls")
    return [call for call in calls if isinstance(call, dict)] if isinstance(calls, list) else []


def call_states(item: dict[str, Any]) -> list[dict[str, Any]]:
    """The `toolCallStates` of a history item that are objects."""
    states = item.get("toolCallStates")
    return [state for state in states if isinstance(state, dict)] if isinstance(states, list) else []


def output_text(output: Any) -> str:
    """What a state's `output` items say, their `content` joined."""
    if not isinstance(output, list):
        return ""
    texts = [entry["content"] for entry in output if isinstance(entry, dict) and type(entry.get("content")) is str]
    return "\n".join(texts)


def function_of(call: dict[str, Any]) -> dict[str, Any]:
    """The `function` object of an OpenAI call (empty when it has none)."""
    function = call.get("function")
    return function if isinstance(function, dict) else {}
