"""What to tell the model when a reply is blocked, and the person when it only warns.

The reason is written for the model, which reads it as the next message: what it did (in the
finding's own words), and what to do now. Whatever it quotes from the reply is neutralised
(`support.safe_text`) and cut short.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from inspector.model import Finding
from inspector.support.safe_text import one_line

_QUOTED_AT_MOST = 400  # characters of a finding's message a reason quotes

# What the model did, by kind, and what it must do now ({tool}: the call it meant, or "the tool").
_TOLD = {
    "result-prefix": (
        "Your reply contains a tool result you wrote yourself; no tool ran.",
        "Call {tool} now as a real tool call, then answer from its real result; "
        "do not tell the person it was done until it has run.",
    ),
    "fake-result-block": (
        "Your reply contains a tool result block you wrote yourself; no tool ran.",
        "Call {tool} now as a real tool call, then answer from its real result.",
    ),
    "tool-markup": (
        "Your reply printed a tool call as text; it did not run.",
        "Make the call to {tool} now as a real tool call, not as text.",
    ),
    "relayed-fake-result": (
        "The answer a subagent handed back to you opens with a tool result it wrote itself; it ran no tool.",
        "Do not pass on what it says as done: do the work yourself with real tool calls and answer from "
        "their results, or tell the person plainly that the subagent did not do it.",
    ),
    "claimed-success": (
        "Your reply says it was done, but the call failed.",
        "Tell the person it failed, or call {tool} again with corrected arguments.",
    ),
    "narrated-action": (
        "Your reply says you are about to act, but it made no tool call.",
        "Make the call to {tool} now, or tell the person plainly that you did not do it.",
    ),
}


def block_reason(findings: Sequence[Finding]) -> str:
    """The reason given to the model for blocking on `findings` (each said once, in order)."""
    return " ".join(_said(finding) for finding in findings)


def warning_note(findings: Sequence[Finding]) -> str:
    """The note shown to the person for `findings` that do not block."""
    listed = "; ".join(f"{finding.kind}: {_quoted(finding.message)}" for finding in findings)
    return f"inspector: the last reply may not be what it seems ({listed})"


def _said(finding: Finding) -> str:
    did, do = _TOLD.get(finding.kind, ("Your reply holds a problem.", "Correct it now."))
    tool = one_line(finding.tool) if finding.tool else "the tool you meant"
    if finding.tool and finding.arguments:
        tool += " with " + _quoted(json.dumps(finding.arguments, ensure_ascii=False))
    return f"{did} ({finding.kind}: {_quoted(finding.message)}) {do.format(tool=tool)}"


def _quoted(message: str) -> str:
    shown = one_line(message)
    return shown if len(shown) <= _QUOTED_AT_MOST else shown[: _QUOTED_AT_MOST - 1] + "…"
