"""OpenAI-style `tool_calls` lists (`[{id, type: "function", function: {name, arguments}}]`, the
arguments a JSON string), shared by every format that stores calls this way."""

from __future__ import annotations

from typing import Any

from inspector.formats.base import arguments_as_json, parse_arguments
from inspector.model import ToolCall


def read_tool_calls(stored: Any) -> tuple[ToolCall, ...]:
    """The calls of a stored `tool_calls` list; entries without a function name are skipped."""
    calls = []
    for call in stored if isinstance(stored, list) else ():
        function = call.get("function") if isinstance(call, dict) else None
        if isinstance(function, dict) and isinstance(function.get("name"), str):
            raw = function.get("arguments")
            calls.append(ToolCall(call.get("id"), function["name"], raw, parse_arguments(raw)))
    return tuple(calls)


def with_replaced_arguments(stored: list[Any], calls: tuple[ToolCall, ...]) -> list[Any]:
    """The stored list with the arguments of each call a repair replaced (a different
    `arguments_raw` object) written back as a JSON string; other entries are kept as they are."""
    out = []
    for index, record in enumerate(stored):
        call = calls[index] if index < len(calls) else None
        function = record.get("function") if isinstance(record, dict) else None
        if call is not None and isinstance(function, dict) and call.arguments_raw is not function.get("arguments"):
            record = {**record, "function": {**function, "arguments": arguments_as_json(call.arguments_raw)}}
        out.append(record)
    return out


def render_tool_calls(calls: tuple[ToolCall, ...]) -> list[dict[str, Any]]:
    """New `tool_calls` entries for calls a repair recovered."""
    return [
        {"id": call.id, "type": "function",
         "function": {"name": call.name, "arguments": arguments_as_json(call.arguments or {})}}
        for call in calls
    ]
