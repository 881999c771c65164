"""Detector `orphan-call`: a structured call that no result answers.

A call is answered by a result with its id (when the call or the result has none, as in older
Gemini files: by a result of the same name, in order) recorded after it and before the next
assistant reply or the end of the session. An assistant turn holding only calls does not end the
wait: some formats record parallel calls one per turn. APIs that replay a history reject a call
with no result, and the model saw nothing for it.

The fix records a result after the call's turn saying that none was recorded (marked as an
error), so the session replays; it is applied only when accepted.

Not flagged: calls answered in any order within the window, and calls that a result answers by
name when one side has no id.
"""

from __future__ import annotations

from collections.abc import Iterator

from inspector.detect.context import ScanContext
from inspector.detect.contract import Detector
from inspector.model import ASSISTANT, ERROR, NO_RESULT, Finding, Fix, ToolCall, ToolResult, Turn

KIND = "orphan-call"


def detect(context: ScanContext) -> Iterator[Finding]:
    """Findings for every call still unanswered at the next assistant reply or at the end."""
    pending: list[tuple[Turn, ToolCall]] = []
    for turn in context.exchange_turns:
        if pending and turn.role == ASSISTANT and not (turn.tool_calls and not turn.text.strip()):
            yield from (_finding(t, call, "before the next assistant reply") for t, call in pending)
            pending = []
        for result in turn.tool_results:
            _answer(pending, result)
        for call in turn.tool_calls:
            pending.append((turn, call))
    yield from (_finding(t, call, "before the session ends") for t, call in pending)


def _answer(pending: list[tuple[Turn, ToolCall]], result: ToolResult) -> None:
    """Remove the call `result` answers from `pending`: by id when both have one, else by name."""
    for index, (_, call) in enumerate(pending):
        if call.id and result.call_id:
            answers = call.id == result.call_id
        else:
            answers = result.name is None or result.name == call.name
        if answers:
            del pending[index]
            return


def _finding(turn: Turn, call: ToolCall, where: str) -> Finding:
    named = f"{call.name} call" if call.name else "call with no name"  # (Goose keeps none for one it could not read)
    label = f"{named} {call.id!r}" if call.id else named
    message = f"The {label} was never answered: no result was recorded {where}."
    result = ToolResult(call.id, call.name, NO_RESULT, is_error=True)
    fix = Fix(add_results=(result,), summary=f"record a result for the {label} saying that none was recorded")
    return Finding.at(
        turn, KIND, ERROR, message, tool=call.name, arguments=call.arguments, payload={"call_id": call.id}, fix=fix
    )


DETECTOR = Detector(KIND, ERROR, detect)
