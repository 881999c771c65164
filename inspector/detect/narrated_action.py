"""Detector `narrated-action`: the assistant says it is about to use a tool, and stops there.

Seed 003's "continuation nudge": after a tool error a model often answers "Let me search for that
now." or "I'll save this to your journal." with no call, so nothing happens until the person
prods ("go on", "did you do it?"), and a harness has to tell it "call the tool NOW". A reply is
flagged when it makes no call, its last sentence announces a tool action (`announcement`), tools
were available (the session defines tools, or calls some), and the exchange ends there: the next
turn (system messages passed over) is the person's, or there is none. A reply followed by the
assistant's own call, or by a tool result, is not flagged. No fix: the action never happened, and
only the person can say whether it still should.

What follows the reply is always known by the next closing reply, so early findings (`scan.early`,
which keeps only findings before the prefix's last closing reply) match the full scan's.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator
from itertools import compress
from operator import attrgetter, not_

from inspector.detect.announcement import final_announcement, may_end_announcing
from inspector.detect.context import ScanContext
from inspector.detect.contract import Detector
from inspector.model import NOT_EXECUTED, SYSTEM, USER, WARNING, Finding, Turn
from inspector.support.safe_text import preview

KIND = "narrated-action"
# System turns passed over when looking for what follows a reply, at most (a bound against hostile sessions).
_SYSTEM_TURNS_AT_MOST = 16
_POSITION = attrgetter("position")
_CALLS = attrgetter("tool_calls")
_TEXT = attrgetter("text")


def detect(context: ScanContext) -> Iterator[Finding]:
    """A finding for each reply that ends the exchange announcing a tool action it never took."""
    if not len(context.catalogue):
        return
    turns = context.session.turns
    # The replies making no call whose end may announce one, told apart with no Python step a reply
    # but the test of its end (most replies fail it).
    replies = context.assistant_turns
    without_calls = list(compress(replies, map(not_, map(_CALLS, replies))))
    for turn in compress(without_calls, map(may_end_announcing, map(_TEXT, without_calls))):
        announced = final_announcement(turn.text)
        if announced is None:
            continue
        index = _index(turns, turn)
        ends_exchange, person = _what_follows(turns, index)
        if ends_exchange and not _after_recovered_call(turns, index):
            yield _finding(context, turn, announced, person)


def _index(turns: tuple[Turn, ...], turn: Turn) -> int:
    """Where `turn` is in `turns` (found by its position, turns being in position order)."""
    index = bisect_left(turns, turn.position, key=_POSITION)
    while turns[index] is not turn:
        index += 1
    return index


def _what_follows(turns: tuple[Turn, ...], index: int) -> tuple[bool, Turn | None]:
    """Whether the turn at `index` ends the exchange, and the person's turn that follows it (None
    at the end of the session). System turns are passed over; the assistant's own turn or a tool
    result after it means the exchange goes on."""
    window = turns[index + 1 : index + 2 + _SYSTEM_TURNS_AT_MOST]
    for following in window:
        if following.role != SYSTEM:
            person = following.role == USER and not following.tool_results
            return person, following if person else None
    return index + 1 + len(window) == len(turns), None


def _after_recovered_call(turns: tuple[Turn, ...], index: int) -> bool:
    """Whether the turn at `index` comes right after inspector's record of a call recovered from
    its text: a repaired reply, whose announced call is there, marked not executed."""
    before = turns[index - 1] if index > 0 else None
    return before is not None and any(NOT_EXECUTED in str(result.content) for result in before.tool_results)


def _finding(context: ScanContext, turn: Turn, announced: tuple[int, str], person: Turn | None) -> Finding:
    """The warning: the announcement, the tool it names if any, and what followed it."""
    start, sentence = announced
    tool = _named_tool(context, sentence)
    quoted = preview(sentence, 120)
    if person is None:
        after = "and the session ends there"
    else:
        after = f'and the person wrote next: "{preview(person.text, 60)}"'
    message = f'The reply ends announcing a tool action ("{quoted}") but makes no call, so nothing ran, {after}.'
    payload = {"announcement": sentence, "followed_by": "end" if person is None else "user"}
    return Finding.at(
        turn, KIND, WARNING, message, (start, start + len(sentence)), tool, payload=payload, executed=False
    )


def _named_tool(context: ScanContext, sentence: str) -> str | None:
    """A catalogue tool the announcement names, if any."""

    def names() -> re.Pattern[str] | None:
        listed = sorted((spec.name for spec in context.catalogue if spec.name), key=len, reverse=True)
        return re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, listed)) + r")(?![\w-])") if listed else None

    pattern = context.memo("catalogue names", names)
    found = pattern.search(sentence) if pattern is not None else None
    return found.group() if found else None


DETECTOR = Detector(KIND, WARNING, detect)
