"""Detector `orphan-result`: a tool result whose call id matches no call in the session.

The result answers a call the history no longer holds (the call was cut or rewritten, or the id
was mangled), so an API replaying the session rejects it and the model reads an answer to nothing.
No fix: which call it belonged to cannot be known.

Not flagged: results without an id (they link by name), and results with an id in a session whose
calls of that tool carry no ids (a format, or a harness, that only ids one side).
"""

from __future__ import annotations

from collections.abc import Iterator

from inspector.detect.context import ScanContext
from inspector.detect.contract import Detector
from inspector.model import WARNING, Finding

KIND = "orphan-result"


def detect(context: ScanContext) -> Iterator[Finding]:
    """Findings for every result whose `call_id` no call in the session has."""
    ids = context.call_names_by_id
    if context.results_by_id.keys() <= ids.keys():
        return  # every result's id is a call's (most sessions): no need to go through the results
    idless_tools = {call.name for turn in context.turns_with_calls for call in turn.tool_calls if not call.id}
    for turn in context.turns_with_results:
        for result in turn.tool_results:
            if not result.call_id or result.call_id in ids or result.name in idless_tools:
                continue
            tool = result.name or "an unknown tool"
            message = (
                f"A result from {tool} answers call id {result.call_id!r}, but no call in the session has that id."
            )
            yield Finding.at(turn, KIND, WARNING, message, tool=result.name, payload={"call_id": result.call_id})


DETECTOR = Detector(KIND, WARNING, detect)
