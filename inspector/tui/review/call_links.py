"""Which turn holds the result of each call, and which turn made the call each result answers.

A result answers the call with its id; a result without an id answers the earliest call still
unanswered with its name (as older Gemini files pair them), the way `orphan-call` and the scan's
context read a session. One pass over the session, kept for the review's jumps between a call
and its result.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from inspector.model import Session, Turn

CallPlace = tuple[int, int]  # a call's turn position, and its number among the turn's calls


@dataclass
class CallLinks:
    """`results_of[p]`: the positions of the turns holding results of the calls made at turn `p`;
    `calls_of[p]`: the positions of the turns whose calls the results at turn `p` answer (both
    sorted, without `p` itself); `unanswered[p]`: the names of turn `p`'s calls no result answers;
    `unmatched`: the positions of turns holding a result that answers no call."""

    results_of: dict[int, list[int]] = field(default_factory=dict)
    calls_of: dict[int, list[int]] = field(default_factory=dict)
    unanswered: dict[int, list[str]] = field(default_factory=dict)
    unmatched: set[int] = field(default_factory=set)

    def link(self, call_at: int, result_at: int) -> None:
        """Record that a call made at `call_at` is answered at `result_at`."""
        if call_at != result_at:
            _add(self.results_of.setdefault(call_at, []), result_at)
            _add(self.calls_of.setdefault(result_at, []), call_at)

    def other_end(self, position: int) -> list[int]:
        """The turns to go to from `position`: its results' turns, else its calls' turns."""
        return self.results_of.get(position) or self.calls_of.get(position) or []


def call_links(session: Session) -> CallLinks:
    """The links between the calls and the results of `session`, in one pass over its turns."""
    links = CallLinks()
    by_id: dict[str, CallPlace] = {}
    waiting: dict[str, deque[CallPlace]] = {}  # tool name -> its calls in order
    answered: set[CallPlace] = set()
    exchange = [turn for turn in session.turns if turn.tool_calls or turn.tool_results]  # most turns are neither
    for turn in exchange:
        for result in turn.tool_results:
            called = _answered_call(result.call_id, result.name, by_id, waiting, answered)
            if called is None:
                links.unmatched.add(turn.position)
                continue
            answered.add(called)
            links.link(called[0], turn.position)
        for number, call in enumerate(turn.tool_calls):
            place = (turn.position, number)
            if call.id:
                by_id[call.id] = place
            waiting.setdefault(call.name, deque()).append(place)
    for position, calls in links.calls_of.items():
        if len(calls) > 1:
            links.calls_of[position] = sorted(set(calls))
    links.unanswered = _unanswered(exchange, answered)
    return links


def _unanswered(turns: list[Turn], answered: set[CallPlace]) -> dict[int, list[str]]:
    """The names of each turn's calls no result answers, by turn position."""
    unanswered: dict[int, list[str]] = {}
    for turn in turns:
        missing = [call.name for number, call in enumerate(turn.tool_calls) if (turn.position, number) not in answered]
        if missing:
            unanswered[turn.position] = missing
    return unanswered


def _answered_call(
    call_id: str | None,
    name: str | None,
    by_id: dict[str, CallPlace],
    waiting: dict[str, deque[CallPlace]],
    answered: set[CallPlace],
) -> CallPlace | None:
    """The call a result answers: by its id, else the earliest unanswered call of its name."""
    if call_id:
        return by_id.get(call_id)
    calls = waiting.get(name or "")
    while calls and calls[0] in answered:
        calls.popleft()
    return calls.popleft() if calls else None


def _add(positions: list[int], position: int) -> None:
    """Append `position` unless it ends the list already (a call's results come in turn order)."""
    if not positions or positions[-1] != position:
        positions.append(position)
