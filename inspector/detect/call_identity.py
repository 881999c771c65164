"""Comparing calls and results by value: a call's arguments and a result's answer as canonical
text (JSON with sorted keys), so that two calls with the same arguments written in another key
order, or two results with the same error, compare equal."""

from __future__ import annotations

import json
from typing import Any

from inspector.detect.tool_error import reported_error
from inspector.model import NO_RESULT, NOT_EXECUTED, ToolCall, ToolResult

# What `json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)` makes, with
# one encoder for every value rather than a new one each time.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical(value: Any) -> str:
    """`value` as canonical JSON text (a string as itself); a value JSON cannot write (a structure
    too deep, keys of several types) as its `repr`, so only an identical value equals it."""
    if isinstance(value, str):
        return value
    try:
        return _CANONICAL.encode(value)
    except (TypeError, ValueError, RecursionError):
        try:
            return repr(value)
        except RecursionError:
            return f"<unreadable {id(value)}>"  # equal to nothing else


def call_identity(call: ToolCall) -> tuple[str, str]:
    """The tool and its parsed arguments as canonical JSON (the raw text when they do not parse)."""
    if call.arguments is not None:
        return call.name, canonical(call.arguments)
    return call.name, "raw:" + canonical(call.arguments_raw)


def answer(result: ToolResult | None) -> tuple[str, str] | None:
    """What a result answered, to compare: ("error", the error) when it reports one (as `tool-error`
    reads it), else ("result", its content); None for no result, or inspector's own answer to a call
    that was never answered or never executed (also as a format writes it back, in an object or
    marked as an error)."""
    if result is None:
        return None
    content = canonical(result.content)
    if NO_RESULT in content or NOT_EXECUTED in content:
        return None
    error = reported_error(result)
    if error is not None:
        return "error", canonical(error)
    return "result", content
