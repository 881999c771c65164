"""What OpenCode's reader and writer share about a `tool` part: the call it records, read back
from how OpenCode (the tool `invalid`) and Kilo CLI (a failed call with `input.value`) store a
call whose arguments did not parse."""

from __future__ import annotations

from typing import Any

INVALID_TOOL = "invalid"  # OpenCode's name for a call whose arguments did not parse
RAW_TEXT, RAW_END = "Text: ", ".\nError message:"  # how the SDK's parse error quotes the raw arguments


def stored_call(tool: Any, state: dict[str, Any]) -> tuple[str, Any]:
    """The tool a part names and the arguments it was called with: for a call whose arguments did
    not parse, the tool the model named and the raw text it sent."""
    arguments = state.get("input")
    name = tool if isinstance(tool, str) else ""
    if not isinstance(arguments, dict):
        return name, arguments
    if name == INVALID_TOOL and isinstance(arguments.get("tool"), str):
        error = arguments.get("error")
        quoted = (error if isinstance(error, str) else "").partition(RAW_TEXT)[2].rpartition(RAW_END)
        return arguments["tool"], quoted[0] if quoted[1] else arguments
    if state.get("status") == "error" and set(arguments) == {"value"} and isinstance(arguments["value"], str):
        return name, arguments["value"]  # Kilo keeps the raw text of arguments that did not parse
    return name, arguments


def mapping(value: Any) -> dict[str, Any]:
    """`value` when it is a JSON object, else an empty one."""
    return value if isinstance(value, dict) else {}
