"""The calls of a LangChain AI message, kept in two places: its `tool_calls` and
`invalid_tool_calls` lists, and the provider's copy in `additional_kwargs` (OpenAI-shaped
`tool_calls`, or a legacy `function_call`). Read as `AIMessage` loads them (`message_calls`), and
a repaired message's calls written back into both, in step (`write_calls`; the reasons are in
`langchain_messages`'s docstring)."""

from __future__ import annotations

from typing import Any

from inspector.model import ToolCall
from inspector.sources.messages.arguments import arguments_as_json, parse_arguments
from inspector.sources.messages.openai_calls import (
    read_tool_calls,
    render_tool_calls,
    repaired_function,
    with_repaired_calls,
)


def message_calls(fields: dict[str, Any]) -> tuple[ToolCall, ...]:
    """An AI message's calls: `tool_calls` then `invalid_tool_calls`, or, when both are empty,
    those of `additional_kwargs`, as `AIMessage` loads them."""
    valid, invalid = _entries(fields, "tool_calls"), _entries(fields, "invalid_tool_calls")
    if valid or invalid:
        return tuple(
            ToolCall(_call_id(call), call["name"], call.get("args"), parse_arguments(call.get("args")))
            for call in valid + invalid
        )
    extra = fields.get("additional_kwargs")
    if not isinstance(extra, dict):
        return ()
    calls = read_tool_calls(extra.get("tool_calls"))
    legacy = extra.get("function_call")
    if isinstance(legacy, dict) and type(legacy.get("name")) is str:
        calls += (ToolCall(None, legacy["name"], legacy.get("arguments"), parse_arguments(legacy.get("arguments"))),)
    return calls


def _call_id(entry: dict[str, Any]) -> str | None:
    """An entry's `id`, as LangChain types it (a text, or none): any other value is none."""
    call_id = entry.get("id")
    return call_id if isinstance(call_id, str) else None


def _entries(fields: dict[str, Any], key: str) -> list[dict[str, Any]]:
    """The entries of a call list that name their tool."""
    stored = fields.get(key)
    return [c for c in stored if isinstance(c, dict) and type(c.get("name")) is str] if isinstance(stored, list) else []


def write_calls(out: dict[str, Any], calls: tuple[ToolCall, ...], stored: tuple[ToolCall, ...]) -> None:
    """Write the turn's calls into the message's fields `out` (read as `stored`), where LangChain
    loads them from: the two lists, or `additional_kwargs` alone when it read them there."""
    extra = out.get("additional_kwargs")
    if not isinstance(extra, dict):
        extra = {}
    openai = extra.get("tool_calls")
    if not isinstance(openai, list):
        openai = None
    legacy = extra.get("function_call")
    if not isinstance(legacy, dict):
        legacy = None
    own, added = calls[: len(stored)], calls[len(stored) :]
    changed = {
        call.id: call.arguments_raw is not old.arguments_raw
        for call, old in zip(own, stored)
        if call.arguments_raw is not old.arguments_raw or call.name != old.name
    }
    if _entries(out, "tool_calls") or _entries(out, "invalid_tool_calls") or not (openai or legacy):
        valid, invalid = _split_calls(out, own)
        out["tool_calls"] = valid + [tool_call(call) for call in added]
        if "invalid_tool_calls" in out or invalid:
            out["invalid_tool_calls"] = invalid
        if openai is not None and (changed or added):
            by_id = {call.id: call for call in own if call.id is not None and call.id in changed}
            extra = {
                **extra,
                "tool_calls": [_in_step(entry, by_id, changed) for entry in openai] + render_tool_calls(added),
            }
    else:  # read from `additional_kwargs` alone, as `AIMessage` loads them: written there alone
        listed = len(read_tool_calls(openai))
        if openai is not None or added:
            extra = {**extra, "tool_calls": with_repaired_calls(openai or [], own[:listed]) + render_tool_calls(added)}
        if legacy is not None and len(own) > listed:  # the call after the listed ones is the legacy one
            extra = {**extra, "function_call": repaired_function(legacy, own[listed])}
    if extra is not out.get("additional_kwargs") and extra:
        out["additional_kwargs"] = extra


def _split_calls(out: dict[str, Any], calls: tuple[ToolCall, ...]) -> tuple[list[Any], list[Any]]:
    """The new `tool_calls` and `invalid_tool_calls` lists for the message's own calls: an entry
    kept as it is unless its call changed; an invalid call whose arguments a repair replaced is a
    valid one now. Entries that name no tool stay in their list."""
    stored_valid = out.get("tool_calls")
    if not isinstance(stored_valid, list):
        stored_valid = []
    stored_invalid = out.get("invalid_tool_calls")
    if not isinstance(stored_invalid, list):
        stored_invalid = []
    remaining = iter(calls)
    valid: list[Any] = []
    invalid: list[Any] = []
    for entries, is_valid in ((stored_valid, True), (stored_invalid, False)):
        for entry in entries:
            call = next(remaining, None) if isinstance(entry, dict) and type(entry.get("name")) is str else None
            if call is None or (call.arguments_raw is entry.get("args") and call.name == entry["name"]):
                (valid if is_valid else invalid).append(entry)
            elif is_valid:
                valid.append({**entry, "name": call.name, "args": call.arguments_raw})
            elif call.arguments_raw is not entry.get("args") and isinstance(call.arguments_raw, dict):
                valid.append(tool_call(call))
            else:
                invalid.append({**entry, "name": call.name})
    return valid, invalid


def tool_call(call: ToolCall) -> dict[str, Any]:
    """A `tool_calls` entry as LangChain writes one."""
    arguments = call.arguments if call.arguments is not None else {}
    return {"name": call.name, "args": arguments, "id": call.id, "type": "tool_call"}


def _in_step(entry: Any, by_id: dict[str, ToolCall], arguments_changed: dict[Any, bool]) -> Any:
    """An `additional_kwargs.tool_calls` entry with the name and, when a repair replaced them, the
    arguments of the changed call of its id."""
    function = entry.get("function") if isinstance(entry, dict) else None
    if not isinstance(function, dict):
        return entry
    call_id = _call_id(entry)
    call = by_id.get(call_id) if call_id is not None else None
    if call is None:
        return entry
    fixed = {**function, "name": call.name}
    if arguments_changed[call.id]:
        fixed["arguments"] = arguments_as_json(call.arguments_raw)
    return {**entry, "function": fixed}
