"""What a hand-written agent loop holds, as the model's values: the tools it offers (any shape the
catalogue reads), the calls of a reply and their results, each given as the model's own values
(`ToolCall`, `ToolResult`, `ToolSpec`) or as the provider's dictionaries.

A call is an OpenAI Chat Completions `tool_calls` entry (`{"id", "function": {"name",
"arguments"}}`), a Responses `function_call` item (`{"call_id", "name", "arguments"}`), an
Anthropic `tool_use` block (`{"id", "name", "input"}`), a Gemini `functionCall` (`{"name", "args"}`)
or a plain `{"name", "arguments"}`. A result is a `tool` message (`{"tool_call_id", "content"}`), a
`function_call_output` item (`{"call_id", "output"}`), a `tool_result` block (`{"tool_use_id",
"content", "is_error"}`) or a plain `{"name", "content"}`; a bare string answers the call at its
place. Anything else is an error naming the value, never guessed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from inspector.catalogue import parse_tool_definitions
from inspector.errors import InspectorError
from inspector.model import ToolCall, ToolResult, ToolSpec
from inspector.sources.messages.arguments import parse_arguments

ToolsGiven = Iterable[ToolSpec | Mapping[str, Any]]
CallsGiven = Sequence[ToolCall | Mapping[str, Any]]
ResultsGiven = Sequence[ToolResult | Mapping[str, Any] | str]

_ARGUMENT_KEYS = ("arguments", "input", "args")
_RESULT_KEYS = ("content", "output", "result", "response")


def tools_of(given: ToolsGiven | None) -> tuple[ToolSpec, ...]:
    """The tool definitions given, as `ToolSpec`s (an unreadable definition is an error)."""
    specs: list[ToolSpec] = []
    for entry in given or ():
        if isinstance(entry, ToolSpec):
            specs.append(entry)
            continue
        read = parse_tool_definitions(dict(entry), "tools-file") if isinstance(entry, Mapping) else []
        if not read:
            raise InspectorError(f"not a tool definition: {_shown(entry)}")
        specs.extend(read)
    return tuple(specs)


def calls_of(given: CallsGiven | None) -> tuple[ToolCall, ...]:
    """The calls given, as `ToolCall`s."""
    return tuple(call if isinstance(call, ToolCall) else _call(call) for call in given or ())


def results_of(given: ResultsGiven | None, calls: tuple[ToolCall, ...]) -> tuple[ToolResult, ...]:
    """The results given, as `ToolResult`s; a bare string answers the call at its place."""
    results = []
    for index, result in enumerate(given or ()):
        if isinstance(result, ToolResult):
            results.append(result)
        elif isinstance(result, str):
            call = calls[index] if index < len(calls) else None
            results.append(ToolResult(call.id if call else None, call.name if call else None, result))
        else:
            results.append(_result(result))
    return tuple(results)


def _call(value: Any) -> ToolCall:
    if not isinstance(value, Mapping):
        raise InspectorError(f"not a tool call: {_shown(value)}")
    function = value.get("function")
    inner: Mapping[str, Any] = function if isinstance(function, Mapping) else value
    name = inner.get("name")
    if not isinstance(name, str) or not name:
        raise InspectorError(f"a tool call without a name: {_shown(value)}")
    raw: Any = next((inner[key] for key in _ARGUMENT_KEYS if key in inner), {})
    call_id = value.get("id") or value.get("call_id")
    return ToolCall(call_id if isinstance(call_id, str) else None, name, raw, parse_arguments(raw))


def _result(value: Any) -> ToolResult:
    if not isinstance(value, Mapping):
        raise InspectorError(f"not a tool result: {_shown(value)}")
    call_id = next((value[key] for key in ("tool_call_id", "call_id", "tool_use_id", "id") if key in value), None)
    if not any(key in value for key in _RESULT_KEYS):
        raise InspectorError(f"a tool result without content: {_shown(value)}")
    content = next(value[key] for key in _RESULT_KEYS if key in value)
    name = value.get("name")
    failed = value.get("is_error") is True or value.get("status") == "error"
    return ToolResult(
        call_id if isinstance(call_id, str) else None, name if isinstance(name, str) else None, content, failed
    )


def _shown(value: Any) -> str:
    """A value named in an error: its type and the start of its text."""
    text = repr(value)
    return text if len(text) <= 80 else text[:79] + "…"
