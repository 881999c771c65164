"""OpenAI-style `tool_calls` lists (`[{id, type: "function", function: {name, arguments}}]`, the
arguments a JSON string), shared by every format that stores calls this way."""

from __future__ import annotations

from typing import Any

from inspector.model import ToolCall
from inspector.sources.messages.arguments import arguments_as_json, parse_arguments


def read_tool_calls(stored: Any) -> tuple[ToolCall, ...]:
    """The calls of a stored `tool_calls` list; entries without a function name are skipped."""
    calls = []
    for call in stored if isinstance(stored, list) else ():
        function = call.get("function") if isinstance(call, dict) else None
        if isinstance(function, dict) and isinstance(function.get("name"), str):
            raw = function.get("arguments")
            calls.append(ToolCall(call.get("id"), function["name"], raw, parse_arguments(raw)))
    return tuple(calls)


def with_repaired_calls(stored: list[Any], calls: tuple[ToolCall, ...]) -> list[Any]:
    """The stored list with each call a repair changed written back: replaced arguments (a
    different `arguments_raw` object) as a JSON string, a new name as the function's name. The
    calls pair with the entries `read_tool_calls` read them from; other entries are kept as they are."""
    remaining = iter(calls)
    out = []
    for record in stored:
        function = record.get("function") if isinstance(record, dict) else None
        if isinstance(function, dict) and isinstance(function.get("name"), str):
            call = next(remaining, None)
            if call is not None and _changed(function, call):
                record = {**record, "function": repaired_function(function, call)}
        out.append(record)
    return out


def repaired_function(function: dict[str, Any], call: ToolCall) -> dict[str, Any]:
    """A stored `{name, arguments}` object with the call's name and, when a repair replaced them,
    its arguments as a JSON string."""
    out = {**function, "name": call.name}
    if call.arguments_raw is not function.get("arguments"):
        out["arguments"] = arguments_as_json(call.arguments_raw)
    return out


def _changed(function: dict[str, Any], call: ToolCall) -> bool:
    return call.arguments_raw is not function.get("arguments") or call.name != function.get("name")


def render_tool_calls(calls: tuple[ToolCall, ...]) -> list[dict[str, Any]]:
    """New `tool_calls` entries for calls a repair recovered."""
    return [
        {
            "id": call.id,
            "type": "function",
            "function": {"name": call.name, "arguments": arguments_as_json(call.arguments or {})},
        }
        for call in calls
    ]
