"""One conversation rebuilt from the model-call spans of a trace, each of which repeats the history.

Every model call sends the whole history so far and gets one answer: call k+1's input is call k's
input, then call k's output, then the new user or tool messages. So the conversation is the
longest history seen plus each call's own output, merged by position, and each message (and each
problem in it) appears once, at its turn.

The calls are taken in start order. A thread is a conversation rebuilt so far; a call continues
the thread of length L whose last message is the call's input message L-1 (compared by a key of
role, text and call and result ids, so an output and its echo in the next input agree). The
thread the previous call extended is tried first, in constant time; otherwise every input
position is looked up in an index of (length, last key), which stays linear in the call's size. A
call that continues no thread (a sub-agent with its own history, say) starts a new one. Only the
messages a thread takes are made into turns, so the cost is linear in the number of spans plus
the size of the new messages, never a comparison of whole histories.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, NamedTuple, Protocol

from inspector.model import Turn


class Messages(Protocol):
    """A call's input messages as they are read: counted, and taken by position (a list, or a
    history decoded only as far as it is read)."""

    def __len__(self) -> int: ...
    def __getitem__(self, index: int) -> Any: ...


class ModelCall(NamedTuple):
    """One model-call span: its raw input and output messages and where they came from."""

    span_id: str
    inputs: Messages
    outputs: Sequence[Any]


ReadTurn = Callable[[Any, dict[str, Any], bool], Turn]  # (message, where, taken): a probe is not taken


def turn_key(turn: Turn) -> Hashable:
    """What identifies a message across calls: its role, text, calls and results."""
    return (
        turn.role,
        turn.text,
        tuple((call.id, call.name) for call in turn.tool_calls),
        tuple(result.call_id for result in turn.tool_results),
    )


def rebuild(calls: Iterable[ModelCall], read_turn: ReadTurn) -> list[list[Turn]]:
    """The conversations (threads) of `calls`, taken once in the order given (a generator keeps
    only one call's messages alive at a time); each turn's `position` is
    its place in its thread and its `raw` says which span and message it was read from."""
    threads: list[list[Turn]] = []
    index: dict[tuple[int, Hashable], list[Turn]] = {}
    last: list[Turn] | None = None
    for call in calls:

        def read(side: str, number: int, message: Any, taken: bool = False, span_id: Any = call.span_id) -> Turn:
            return read_turn(message, {"span": span_id, side: number}, taken)

        thread = _continued(call, last, index, read)
        if thread is None:
            thread = []
            threads.append(thread)
        elif thread:
            del index[(len(thread), turn_key(thread[-1]))]
        for number in range(len(thread), len(call.inputs)):
            thread.append(read("input", number, call.inputs[number], True))
        for number, message in enumerate(call.outputs):
            thread.append(read("output", number, message, True))
        if thread:
            index[(len(thread), turn_key(thread[-1]))] = thread
        last = thread
    for thread in threads:
        for position, turn in enumerate(thread):
            turn.position = position
    return [thread for thread in threads if thread]


def _continued(
    call: ModelCall,
    last: list[Turn] | None,
    index: dict[tuple[int, Hashable], list[Turn]],
    read: Callable[[str, int, Any], Turn],
) -> list[Turn] | None:
    """The thread `call` continues, or None."""
    inputs = call.inputs
    if last and len(last) <= len(inputs):
        anchor = len(last) - 1
        if turn_key(read("input", anchor, inputs[anchor])) == turn_key(last[-1]):
            return last
    if not index:
        return None
    for length in range(len(inputs), 0, -1):
        thread = index.get((length, turn_key(read("input", length - 1, inputs[length - 1]))))
        if thread is not None:
            return thread
    return None
