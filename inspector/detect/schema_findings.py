"""The findings of a checked call: one per schema kind it has problems of, each message saying
what is wrong and what its fix would change (or why there is none), each fix a value.

A call recovered from text (not yet in the session) never gets a fix: the person corrects it in
the review, and the message says what would make it valid.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspector.detect.schema_kinds import UNKNOWN_TOOL, Problem
from inspector.model import Finding, Fix, Severity, ToolCall, Turn

NO_REPAIR = "no lossless repair makes the arguments valid"


@dataclass(frozen=True)
class CallCheck:
    """A call with problems: where it is, what is wrong, and the repair: the repaired arguments with
    the changes made by kind, or the tool to rename the call to; `reason` says why that tool, or
    why there is no repair."""

    turn: Turn
    index: int
    call: ToolCall
    problems: tuple[Problem, ...]
    repaired: dict[str, Any] | None = None
    changes: tuple[tuple[str, str], ...] = ()
    rename: str | None = None
    reason: str = NO_REPAIR
    payload: dict[str, Any] | None = None


def finding(check: CallCheck, kind: str, severity: Severity, recovered: bool = False) -> Finding | None:
    """The finding of `kind` for a checked call, with the repair as its fix (none for recovered
    calls), or None when the call has no such problem."""
    mine = [p.text for p in check.problems if p.kind == kind]
    if not mine:
        return None
    call, turn = check.call, check.turn
    label = (
        f"Recovered call {call.name}"
        if recovered
        else (f"The {call.name} call" + (f" (call {check.index + 1} of the turn)" if len(turn.tool_calls) > 1 else ""))
    )
    message = f"{label}: {'; '.join(mine)}."  # (the kind is the finding's own, shown beside it)
    payload = {"problems": mine, "changes": [text for _, text in check.changes], **(check.payload or {})}
    fix, arguments = None, call.arguments
    reason = check.reason
    if kind == UNKNOWN_TOOL:
        change = f"rename the call to {check.rename}" if check.rename else None
    else:
        own = [text for k, text in check.changes if k == kind]
        other = [f"{text} ({k})" for k, text in check.changes if k != kind]
        change = "; ".join(own + other) if check.repaired is not None else None
    if change is None:
        message += f" No automatic fix: {reason}; correct it by hand in the review."
    elif recovered:
        message += (
            " No automatic fix for a call recovered from text: correct it by hand in the review; "
            f"this would make it valid: {change}."
        )
    elif kind == UNKNOWN_TOOL and check.rename:
        kept = "its id and arguments" if call.id else "its arguments (its result, matched by name, is renamed too)"
        message += f" Fix: {change}, keeping {kept} ({reason})."
        fix = Fix(rename_calls=((check.index, check.rename),), summary=f"rename the {call.name} call to {check.rename}")
    elif check.repaired is not None:
        message += f" Fix: replace the call's arguments: {change}; the result validates against {call.name}."
        fix = Fix(
            replace_arguments=((check.index, check.repaired),),
            summary=f"replace the {call.name} call's arguments: {change}",
        )
        arguments = check.repaired
    return Finding.at(turn, kind, severity, message, tool=call.name, arguments=arguments, payload=payload, fix=fix)
