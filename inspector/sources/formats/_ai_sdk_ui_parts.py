"""The tool parts of AI SDK UI messages: reading a call and its result from one, and writing a
repaired call or a recorded result back into it.

A UI message keeps a call and its result in one part:
- `{type: "tool-<name>", toolCallId, state, input, rawInput?, output?, errorText?}` (v5+), where
  `state` is `input-streaming`, `input-available`, `output-available` or `output-error`, and v6
  adds `approval-requested`, `approval-responded` and `output-denied`. A call whose arguments did
  not parse has `state: "output-error"` and its raw text in `rawInput` (no `input`): that text is
  the call's stored arguments, so a scan sees them broken;
- `{type: "dynamic-tool", toolName, ...}` the same for tools not known statically;
- `{type: "tool-invocation", toolInvocation: {state: partial-call | call | result, toolCallId,
  toolName, args, result}}` (v4).
"""

from __future__ import annotations

import json
from typing import Any

from inspector.model import ToolCall, ToolResult
from inspector.sources.messages.arguments import parse_arguments

V4 = "tool-invocation"
DYNAMIC = "dynamic-tool"
ERROR_STATES = frozenset({"output-error", "output-denied"})


def is_tool_part(part: Any) -> bool:
    """Whether `part` is a tool part with a tool name."""
    return isinstance(part, dict) and tool_name(part) is not None


def tool_name(part: dict[str, Any]) -> str | None:
    """The name of the tool a part calls, None when it is no tool part."""
    kind = part.get("type")
    if type(kind) is not str or not kind.startswith(("tool-", DYNAMIC)):
        return None
    if kind == V4:
        name = _invocation(part).get("toolName")
    elif kind == DYNAMIC:
        name = part.get("toolName")
    else:
        name = kind[len("tool-") :]
    return name if isinstance(name, str) and name else None


def call_of(part: dict[str, Any]) -> ToolCall:
    """The call a tool part records: its stored arguments are `rawInput` where the call failed
    with no parsed `input`, else `input` (v4: `args`)."""
    fields = _invocation(part) if part.get("type") == V4 else part
    if part.get("type") == V4:
        raw = fields.get("args")
    elif fields.get("input") is None and "rawInput" in fields:
        raw = fields["rawInput"]
    else:
        raw = fields.get("input")
    return ToolCall(_id(fields), tool_name(part) or "", raw, parse_arguments(raw))  # a tool part: named


def result_of(part: dict[str, Any]) -> ToolResult | None:
    """The result a tool part records, None while the call waits for one."""
    name = tool_name(part)
    if part.get("type") == V4:
        invocation = _invocation(part)
        if invocation.get("state") != "result":
            return None
        return ToolResult(_id(invocation), name, invocation.get("result"))
    state = part.get("state")
    if state == "output-available":
        return ToolResult(_id(part), name, part.get("output"))
    if type(state) is str and state in ERROR_STATES:
        approval = part.get("approval")
        reason = approval.get("reason") if isinstance(approval, dict) else None
        content = part.get("errorText") if state == "output-error" else reason or "The tool call was denied."
        return ToolResult(_id(part), name, content, True)
    return None


def with_call(part: dict[str, Any], call: ToolCall) -> dict[str, Any]:
    """The part under the call's name and, when a repair replaced them, its arguments (the raw
    text it replaces is dropped)."""
    if part.get("type") == V4:
        invocation = _invocation(part)
        fixed = {**invocation, "toolName": call.name}
        if call.arguments_raw is not invocation.get("args"):
            fixed["args"] = call.arguments_raw
        return {**part, "toolInvocation": fixed}
    out = {**part, "toolName": call.name} if part.get("type") == DYNAMIC else {**part, "type": f"tool-{call.name}"}
    if call.arguments_raw is not call_of(part).arguments_raw:
        out.pop("rawInput", None)
        out["input"] = call.arguments_raw
    return out


def changed(part: dict[str, Any], call: ToolCall) -> bool:
    """Whether a repair renamed the part's call or replaced its arguments."""
    return call.name != tool_name(part) or call.arguments_raw is not call_of(part).arguments_raw


def with_result(part: dict[str, Any], result: ToolResult) -> dict[str, Any]:
    """The part with `result` recorded as its output (an error as `output-error`)."""
    if part.get("type") == V4:
        return {**part, "toolInvocation": {**_invocation(part), "state": "result", "result": result.content}}
    out = {key: value for key, value in part.items() if key not in ("output", "errorText")}
    if result.is_error:
        text = result.content if isinstance(result.content, str) else json.dumps(result.content, ensure_ascii=False)
        return {**out, "state": "output-error", "errorText": text}
    return {**out, "state": "output-available", "output": result.content}


def new_part(call: ToolCall) -> dict[str, Any]:
    """A tool part for a call a repair recovered, waiting for its result."""
    return {
        "type": f"tool-{call.name}",
        "toolCallId": call.id,
        "state": "input-available",
        "input": call.arguments or {},
    }


def _invocation(part: dict[str, Any]) -> dict[str, Any]:
    invocation = part.get("toolInvocation")
    return invocation if isinstance(invocation, dict) else {}


def _id(fields: dict[str, Any]) -> str | None:
    call_id = fields.get("toolCallId")
    return call_id if isinstance(call_id, str) else None
