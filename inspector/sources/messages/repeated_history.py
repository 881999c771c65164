"""One conversation from the model calls of a log, where every call repeats the history so far.

A log of model calls (LiteLLM's logging payloads, Langfuse generations, LangSmith `llm` runs)
holds, for each call, its whole input (every message of the conversation up to the call) and its
own output. Read call by call, each problem would be reported once per later call that repeats
it; so the calls of one conversation (one trace, session or thread) are put in start-time order
and read as one list of messages: the first call's input, then, for each call, the messages its
input adds to the conversation so far and the call's own output. The work is linear in the number
of calls and in the size of what each one adds: an input is never compared with the earlier ones
beyond the role of its last repeated message.

A format names each call's conversation, start and messages (`ModelCall`), and reads the messages
`conversation` gives into turns with its own message reader. Calls a log names no conversation for
are grouped by what they repeat (`by_thread`), as `otel_conversation` threads a trace's calls.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from inspector.model import Turn
from inspector.sources.messages import otel_conversation


@dataclass(frozen=True)
class ModelCall:
    """One model call of a log: `group`, the conversation it belongs to; `start`, what orders it
    (values of one type across a log); `inputs`, every message it was sent; `outputs`, the
    messages it answered; `label`, how a problem names it ("line 4")."""

    group: str
    start: Any
    inputs: list[Any]
    outputs: list[Any]
    label: str


def grouped(calls: Iterable[ModelCall]) -> dict[str, list[ModelCall]]:
    """The calls of each conversation, the conversations in the order they first appear."""
    groups: dict[str, list[ModelCall]] = {}
    for call in calls:
        groups.setdefault(call.group, []).append(call)
    return groups


def by_thread(calls: list[ModelCall], read_message: Callable[[Any], Turn]) -> list[list[ModelCall]]:
    """Calls that name no conversation, grouped into conversations (each in start order): a call
    joins the one whose whole history so far, its calls' inputs and outputs, its input repeats,
    else starts one (`otel_conversation.rebuild`, linear in the calls and what each adds).
    `read_message` reads one message well enough to compare it (role, text, call and result ids).
    A call that adds no message stays with the conversation of the call before it."""
    ordered = sorted(calls, key=lambda c: c.start)
    threads = otel_conversation.rebuild(
        (otel_conversation.ModelCall(str(number), call.inputs, call.outputs) for number, call in enumerate(ordered)),
        lambda message, where, taken: replace(read_message(message), raw=where["span"]),
    )
    thread_of: dict[str, int] = {}
    for number, thread in enumerate(threads):
        for turn in thread:
            thread_of.setdefault(turn.raw, number)
    groups: list[list[ModelCall]] = [[] for _ in threads] or [[]]
    current = 0
    for number, call in enumerate(ordered):
        current = thread_of.get(str(number), current)
        groups[current].append(call)
    return [group for group in groups if group]


def conversation(calls: list[ModelCall], role_of: Callable[[Any], Any]) -> tuple[list[Any], list[str]]:
    """The messages of one conversation rebuilt from its calls (in start order, ties kept in log
    order), and problems: a call whose input is shorter than the conversation so far re-sends an
    earlier point of it (a retry, or a branch), and is left out, said so; one whose input
    disagrees with the conversation at its last repeated message (by `role_of`) is read from the
    point it repeats, and said so."""
    messages: list[Any] = []
    problems: list[str] = []
    for call in sorted(calls, key=lambda c: c.start):
        known = len(messages)
        if len(call.inputs) < known:
            problems.append(
                f"{call.label}: its input repeats only {len(call.inputs)} of the {known} messages "
                f"before it (a retry or a branch); the call is not read"
            )
            continue
        if known and role_of(call.inputs[known - 1]) != role_of(messages[-1]):
            problems.append(
                f"{call.label}: its input does not repeat the conversation before it; "
                f"its messages from {known + 1} on are read as new"
            )
        messages.extend(call.inputs[known:])
        messages.extend(call.outputs)
    return messages, problems
