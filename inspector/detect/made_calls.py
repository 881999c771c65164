"""The calls a reply already makes, against which a call read from its text is compared: a call
recovered a second time would be recorded twice.

A turn's own structured calls count with their arguments as parsed, or, when the stored string does
not parse, as `malformed-arguments` repairs it (a server that streamed a call as a structured call
and leaked its markup into the text too, one of them broken); only calls of the names asked about
are repaired, so a reply that leaks nothing costs nothing.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from inspector.detect.malformed_arguments import repair_arguments
from inspector.model import ToolCall, Turn

Made = list[tuple[str, dict[str, Any]]]


def structured_calls(turn: Turn, names: Collection[str | None]) -> Made:
    """The turn's own calls of the tools `names`, each with its arguments (repaired when they do
    not parse; left out when no object can be had)."""
    made = []
    for call in turn.tool_calls:
        if call.name in names:
            arguments = _arguments(call)
            if arguments is not None:
                made.append((call.name, arguments))
    return made


def _arguments(call: ToolCall) -> dict[str, Any] | None:
    if call.arguments is not None:
        return call.arguments
    return repair_arguments(call.arguments_raw).value if isinstance(call.arguments_raw, str) else None


def is_made(name: str, arguments: dict[str, Any], made: Made) -> bool:
    """Whether the call `name(arguments)` is one of `made`, the same arguments exactly."""
    return any(name == other and arguments == other_arguments for other, other_arguments in made)


def holds(call: ToolCall, arguments: dict[str, Any]) -> bool:
    """Whether `call`'s arguments hold every one of `arguments` with the same value: recovering
    those as a call of their own would add nothing but a second call."""
    held = call.arguments or {}
    return bool(arguments) and all(key in held and held[key] == value for key, value in arguments.items())
