"""Detector `mismatched-result`: a tool result whose name disagrees with the call its id points to.

Formats that store a name on each result as well as a call id (OpenAI's named `tool` messages,
Gemini's `functionResponse`, session dumps, Gemini CLI, LangChain, Pydantic AI, the AI SDK, `llm`,
...) can hold a result that says it comes from `send_mail` while its id answers a `send_email`
call: what a rename done by hand or by a harness leaves behind, or a harness that ran, or paired,
the wrong tool. Gemini pairs a response with its call by name, so a replay is rejected or
misread, and the model reads an answer under a tool it did not call: an error.

No fix: the id and the name disagree and the session cannot tell which is wrong. Renaming the
result after the call would hide a wrong tool having run, or an id that points at the wrong call.

Only the calls recorded before the result (in session order) are looked up, so the finding on a
prefix of the session is the finding on the whole of it. Not flagged: results with no id or no
name (formats that name a result after its call never disagree), and ids that several calls of
different tools share (the result's call cannot be told).
"""

from __future__ import annotations

from collections.abc import Iterator

from inspector.detect.context import ScanContext
from inspector.detect.contract import Detector
from inspector.model import ERROR, Finding, Severity, ToolResult, Turn

KIND = "mismatched-result"
SEVERITY: Severity = ERROR

_SHARED = ("", -1)  # an id that calls of different tools share: no single call it points to


def detect(context: ScanContext) -> Iterator[Finding]:
    """A finding for every result whose name is not the name of the earlier call with its id."""
    calls: dict[str, tuple[str, int]] = {}  # call id -> (tool, turn) of the call before
    for turn in context.exchange_turns:
        for call in turn.tool_calls:
            if call.id:
                known = calls.get(call.id)
                calls[call.id] = (call.name, turn.position) if known is None or known[0] == call.name else _SHARED
        for result in turn.tool_results:
            if not result.call_id or not result.name:
                continue
            called = calls.get(result.call_id)
            if called is not None and called is not _SHARED and called[0] != result.name:
                yield _finding(turn, result, *called)


def _finding(turn: Turn, result: ToolResult, tool: str, call_turn: int) -> Finding:
    message = (
        f"A result names {result.name}, but its call id {result.call_id!r} points to the {tool} call "
        f"at turn {call_turn}: the result answers the wrong call, or names the wrong tool."
    )
    return Finding.at(
        turn,
        KIND,
        SEVERITY,
        message,
        tool=tool,
        payload={"call_id": result.call_id, "call_turn": call_turn, "call_name": tool, "result_name": result.name},
    )


DETECTOR = Detector(KIND, SEVERITY, detect)
