"""Detector `repeated-call`: the same call made three or more times in a row, answered the same way.

An agent stuck in a loop calls the same tool with the same arguments (compared as canonical JSON,
so key order does not matter) again and again, and gets the same error, or the same result, each
time: nothing it learns changes what it does, and the session burns calls (and money) until a
limit stops it. One finding per run of repeats, at the turn of the run's last call: the tool, how
many times it was called, and how many of those calls in a row got the same answer (at least
three). No fix: only a person can tell what the agent should have done instead.

A run is the calls of one tool with the same arguments, one after another (several in one turn
count, as parallel calls); it ends at another call, at a user's message, or at an assistant reply
that calls nothing (the model stopped and spoke). So a run whose last call is before a prefix's
last closing reply has ended by that reply, and the prefix holds the whole run; its calls'
results are those the session pairs with them (by id, else by name in order), recorded before
that reply (`scan/early.py`'s one assumption).

Not flagged: two calls alike (a retry), runs whose answers change (polling that makes progress,
a retry that succeeds), calls with no result, and calls whose arguments differ in any value.
"""

from __future__ import annotations

from collections.abc import Iterator

from inspector.detect.call_identity import answer, call_identity
from inspector.detect.context import ScanContext
from inspector.detect.contract import Detector
from inspector.model import ASSISTANT, USER, WARNING, Finding, Severity, ToolCall, ToolResult, Turn
from inspector.support.safe_text import preview

KIND = "repeated-call"
SEVERITY: Severity = WARNING
MIN_REPEATS = 3

_PREVIEW = 80


class _Run:
    """Consecutive calls of one tool with the same arguments, and the turns of the first and last."""

    __slots__ = ("_identity", "calls", "first", "last")

    def __init__(self, call: ToolCall, turn: Turn, identity: tuple[str, str] | None = None) -> None:
        self.calls = [call]
        self._identity = identity
        self.first = turn.position
        self.last = turn

    @property
    def identity(self) -> tuple[str, str]:
        """The tool and canonical arguments of the run's calls (written out only when a call of
        the same tool follows, as most calls start a run of their own)."""
        if self._identity is None:
            self._identity = call_identity(self.calls[0])
        return self._identity

    def add(self, call: ToolCall, turn: Turn) -> None:
        """Add `call`, the run's call again (the same tool with the same arguments)."""
        self.calls.append(call)
        self.last = turn


def detect(context: ScanContext) -> Iterator[Finding]:
    """A finding for each run of three or more identical calls in a row answered the same way."""
    for run in _long_runs(context):
        same, answered = _longest_same_answer(context.results_of(run.calls))
        if same >= MIN_REPEATS:
            yield _finding(run, same, answered)


def _long_runs(context: ScanContext) -> Iterator[_Run]:
    """The runs of at least `MIN_REPEATS` calls, in order: looked for only among the calls of each
    stretch of as many calls of one tool in a row (`_stretches`), as a run lies in one."""
    turns = context.session.turns
    for first, offset, count in _stretches(context.turns_with_calls):
        for run in _runs(turns, context.index_of(first), offset, count):
            if len(run.calls) >= MIN_REPEATS:
                yield run


def _stretches(calling: list[Turn]) -> Iterator[tuple[Turn, int, int]]:
    """The turn of the first call, that call's place in it, and the number of calls, of each
    stretch of at least `MIN_REPEATS` calls of one tool one after another in the session's calls
    (whatever turns without calls lie between): few calls are in one, so only those are compared."""
    tool: str | None = None
    first: Turn | None = None
    count = offset = 0
    for turn in calling:
        for place, call in enumerate(turn.tool_calls):
            if call.name == tool:
                count += 1
                continue
            if count >= MIN_REPEATS and first is not None:
                yield first, offset, count
            tool, count, first, offset = call.name, 1, turn, place
    if count >= MIN_REPEATS and first is not None:
        yield first, offset, count


def _runs(turns: tuple[Turn, ...], index: int, offset: int, count: int) -> Iterator[_Run]:
    """The runs of consecutive identical calls among the `count` calls (of one tool) from the one
    at `offset` in `turns[index]` on, in order."""
    run: _Run | None = None
    while count:
        turn = turns[index]
        index += 1
        if turn.tool_calls:
            calls = turn.tool_calls[offset : offset + count]
            offset, count = 0, count - len(calls)
            for call in calls:
                identity = call_identity(call) if run is not None else None
                if run is not None and identity == run.identity:
                    run.add(call, turn)
                    continue
                if run is not None:
                    yield run
                run = _Run(call, turn, identity)
        elif run is not None and (turn.role == ASSISTANT or (turn.role == USER and not turn.tool_results)):
            yield run  # a reply that calls nothing, or the user's message, ends it
            run = None
    if run is not None:
        yield run


def _longest_same_answer(results: list[ToolResult | None]) -> tuple[int, tuple[str, str] | None]:
    """The length of the longest stretch of consecutive results with the same answer, and that answer."""
    best, best_answer, length, previous = 0, None, 0, None
    for result in results:
        current = answer(result)
        length = length + 1 if current is not None and current == previous else (1 if current is not None else 0)
        previous = current
        if length > best:
            best, best_answer = length, current
    return best, best_answer


def _finding(run: _Run, same: int, answered: tuple[str, str] | None) -> Finding:
    tool, count = run.calls[0].name, len(run.calls)
    what, value = answered or ("result", "")
    arguments = preview(run.identity[1].removeprefix("raw:"), _PREVIEW)
    got = f"each time getting the same {what}" if same == count else f"{same} of them in a row got the same {what}"
    message = (
        f"{tool} was called {count} times in a row with the same arguments ({arguments}), {got}: "
        f"{preview(value, _PREVIEW)}"
    )
    turn = run.last
    return Finding.at(
        turn,
        KIND,
        SEVERITY,
        message,
        tool=tool,
        arguments=run.calls[0].arguments,
        payload={"count": count, "same_answers": same, "answer": what, "first_turn": run.first},
    )


DETECTOR = Detector(KIND, SEVERITY, detect)
