"""What detectors look up across a session: its catalogue and indexes over its calls and
results. Indexes are built once per scan, and only when a detector first needs them."""

from __future__ import annotations

import json
from bisect import bisect_left, bisect_right
from collections import deque
from collections.abc import Callable
from operator import attrgetter
from typing import Any, Generic, NamedTuple, TypeVar, overload

from inspector.catalogue import Catalogue
from inspector.model import ASSISTANT, NOT_EXECUTED, RECOVERED, SYSTEM, USER, Session, ToolCall, ToolResult, Turn

# How many earlier calls to compare, most recent first, per lookup: an echo or a repeat is of a
# recent call, and the bound keeps huge sessions fast.
_LOOKBACK = 16


_Owner = TypeVar("_Owner")
_Value = TypeVar("_Value")


class memoized_property(Generic[_Owner, _Value]):
    """`functools.cached_property` without its lock: Python 3.11's takes one on each first access
    (some 0.4 µs more, and a context computes several values a session, for thousands of small
    sessions in a file). A context is scanned by one thread, so two never compute one value at once."""

    def __init__(self, compute: Callable[[_Owner], _Value]) -> None:
        self.compute, self.name = compute, compute.__name__
        self.__doc__ = compute.__doc__

    @overload
    def __get__(self, instance: None, owner: type[_Owner] | None = None) -> memoized_property[_Owner, _Value]: ...

    @overload
    def __get__(self, instance: _Owner, owner: type[_Owner] | None = None) -> _Value: ...

    def __get__(
        self, instance: _Owner | None, owner: type[_Owner] | None = None
    ) -> _Value | memoized_property[_Owner, _Value]:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.compute(instance)  # read from there from now on
        return value


class PastCall(NamedTuple):
    """A structured call that the session records, with the turn it is in and its result (a
    tuple: a large session has tens of thousands, and a frozen dataclass is slower to build)."""

    position: int
    call: ToolCall
    result: ToolResult | None


class CallAt(NamedTuple):
    """A structured call with the position of its turn: what the by-tool indexes hold, so that
    building them needs no pairing of calls with results."""

    position: int
    call: ToolCall


class ScanContext:
    """A session, its tool catalogue, and indexes over its calls and results."""

    def __init__(self, session: Session, catalogue: Catalogue) -> None:
        self.session = session
        self.catalogue = catalogue
        self._memo: dict[str, Any] = {}

    def memo(self, key: str, compute: Callable[[], _Value]) -> _Value:
        """A value several detectors share, computed once per scan by the first that asks (each
        key always with the same `compute`, so the value kept is of its type)."""
        if key in self._memo:
            value: _Value = self._memo[key]
        else:
            value = self._memo[key] = compute()
        return value

    @memoized_property
    def _groups(self) -> tuple[list[Turn], list[Turn], list[Turn], list[Turn]]:
        assistant, calling, answering, exchange = [], [], [], []
        for turn in self.session.turns:
            relevant = turn.role == SYSTEM
            if turn.role == ASSISTANT:
                assistant.append(turn)
                relevant = True
            if turn.tool_calls:
                calling.append(turn)
                relevant = True
            if turn.tool_results:
                answering.append(turn)
                relevant = True
            if relevant:
                exchange.append(turn)
        return assistant, calling, answering, exchange

    def index_of(self, turn: Turn) -> int:
        """The index of `turn` in the session's turns: its position when no record was skipped
        before it (most sessions), else found by bisection, as turns are kept in position order
        (a turn a repair inserted shares its neighbour's position), else searched."""
        turns = self.session.turns
        if turn.position < len(turns) and turns[turn.position] is turn:
            return turn.position
        index = bisect_left(turns, turn.position, key=_POSITION)
        while index < len(turns) and turns[index].position == turn.position:
            if turns[index] is turn:
                return index
            index += 1
        return next(index for index, other in enumerate(turns) if other is turn)

    @property
    def assistant_turns(self) -> list[Turn]:
        """The assistant's turns, in order (detectors of reply text need only these)."""
        return self._groups[0]

    @property
    def turns_with_calls(self) -> list[Turn]:
        """The turns holding structured calls, in order."""
        return self._groups[1]

    @property
    def turns_with_results(self) -> list[Turn]:
        """The turns holding tool results, in order."""
        return self._groups[2]

    @property
    def exchange_turns(self) -> list[Turn]:
        """Every turn but the user's plain messages: the assistant's and the system's, and those
        holding calls or results, in order."""
        return self._groups[3]

    @memoized_property
    def past_calls(self) -> list[PastCall]:
        """Every structured call in session order, paired with its result (by id, else by name)."""
        by_id = self.results_by_id
        by_name: dict[str, deque[ToolResult]] = {}  # (a deque: taking the first of a list is linear)
        for turn in self.turns_with_results:
            for named in turn.tool_results:
                if not named.call_id and named.name:
                    by_name.setdefault(named.name, deque()).append(named)
        calls = []
        for turn in self.turns_with_calls:
            position = turn.position
            for call in turn.tool_calls:
                result = by_id.get(call.id) if call.id else None
                if result is None and by_name.get(call.name):
                    result = by_name[call.name].popleft()
                calls.append(PastCall(position, call, result))
        return calls

    @memoized_property
    def results_by_id(self) -> dict[str, ToolResult]:
        """The result of each call id that results carry (the last one recorded with it)."""
        return {
            result.call_id: result for turn in self.turns_with_results for result in turn.tool_results if result.call_id
        }

    @memoized_property
    def call_names_by_id(self) -> dict[str, str]:
        """The tool of each call id that calls carry (the last call's, when calls share an id)."""
        return {call.id: call.name for turn in self.turns_with_calls for call in turn.tool_calls if call.id}

    def results_of(self, calls: list[ToolCall]) -> list[ToolResult | None]:
        """The results `past_calls` pairs with `calls`: those with a call's id, looked up directly;
        `past_calls` is built only when a call has none (it pairs by name, in session order)."""
        by_id = self.results_by_id
        results = [by_id.get(call.id) if call.id else None for call in calls]
        if any(result is None for result in results):
            paired = self.memo("results by call", lambda: {id(past.call): past.result for past in self.past_calls})
            results = [paired.get(id(call)) for call in calls]
        return results

    @memoized_property
    def _unexecuted(self) -> set[int]:
        if not any(
            _says_not_executed(result.content) for turn in self.turns_with_results for result in turn.tool_results
        ):
            return set()  # no result says so (most sessions): no need to pair calls with results
        return {
            id(past.call)
            for past in self.past_calls
            if past.result is not None and _says_not_executed(past.result.content)
        }

    def ran(self, call: ToolCall) -> bool:
        """False for a call that a repair recovered from text and recorded as not executed."""
        return call.origin != RECOVERED and id(call) not in self._unexecuted

    @memoized_property
    def _calls_by_tool(self) -> dict[str, list[CallAt]]:
        index: dict[str, list[CallAt]] = {}
        for turn in self.turns_with_calls:
            for call in turn.tool_calls:
                index.setdefault(call.name, []).append(CallAt(turn.position, call))
        return index

    def _calls_by_text_argument(self, tool: str) -> dict[tuple[str, str], list[CallAt]]:
        """The calls of `tool` by each of their text arguments (name and value); built for a tool
        when first asked, as only the tools that fake results are inferred for are ever asked,
        straight from the turns: `_calls_by_tool` would make an entry for every call of every tool."""

        def build() -> dict[tuple[str, str], list[CallAt]]:
            index: dict[tuple[str, str], list[CallAt]] = {}
            for turn in self.turns_with_calls:
                for call in turn.tool_calls:
                    if call.name != tool or not call.arguments:
                        continue
                    entry = CallAt(turn.position, call)
                    for key, value in call.arguments.items():
                        if isinstance(value, str) and value:
                            index.setdefault((key, value), []).append(entry)
            return index

        return self.memo(f"calls by text argument {tool}", build)

    def matching_call(self, tool: str, arguments: dict[str, Any], position: int) -> CallAt | None:
        """The latest call of `tool` up to `position` whose arguments agree with `arguments`
        (every text argument equal, no value in conflict)."""
        texts = [(k, v) for k, v in arguments.items() if isinstance(v, str) and v]
        if texts:
            by_text = self._calls_by_text_argument(tool)
            calls = min((by_text.get(text, []) for text in texts), key=len)
        else:
            calls = self._calls_by_tool.get(tool, [])
        return _latest(
            calls,
            position,
            lambda past: bool(past.call.arguments and self.ran(past.call) and agrees(arguments, past.call.arguments)),
        )

    @memoized_property
    def _user_positions(self) -> list[int]:
        return [turn.position for turn in self.session.turns if turn.role == USER]

    def matching_result(self, obj: dict[str, Any], position: int) -> PastCall | None:
        """The latest call of the current exchange (since the last user turn before `position`)
        whose result agrees with `obj`: keys shared, no value in conflict. Only results holding
        one of `obj`'s texts are parsed."""
        texts = [v for v in obj.values() if isinstance(v, str) and v]
        exchange_start = self._exchange_start(position)

        def echoed(past: PastCall) -> bool:
            content = past.result.content if past.result is not None else None
            if isinstance(content, str) and not any(text in content for text in texts):
                return False
            found = result_object(past.result)
            return found is not None and agrees(obj, found)

        if not texts or not self._has_call_between(exchange_start, position):
            return None  # (most fake results are in an exchange without calls: no pairing needed)
        return _latest(self.past_calls, position, echoed, since=exchange_start)

    def called_in_exchange(self, position: int) -> bool:
        """Whether a structured call was made in the exchange of the turn at `position` (after the
        last user turn before it), up to that turn and in it: one reply may span several turns."""
        return self._has_call_between(self._exchange_start(position), position)

    def _exchange_start(self, position: int) -> int:
        """The position of the last user turn before `position` (-1 when there is none)."""
        users = self._user_positions
        return users[bisect_left(users, position) - 1] if users and users[0] < position else -1

    def _has_call_between(self, start: int, end: int) -> bool:
        """Whether a turn after `start` and up to `end` holds a structured call."""
        calling = self.turns_with_calls
        index = bisect_right(calling, end, key=_POSITION)
        return index > 0 and calling[index - 1].position > start


_POSITION = attrgetter("position")
_Entry = TypeVar("_Entry", PastCall, CallAt)


def _latest(calls: list[_Entry], position: int, accept: Callable[[_Entry], bool], since: int = -1) -> _Entry | None:
    """The latest of the last `_LOOKBACK` calls after `since` and up to `position` that `accept` takes."""
    end = bisect_right(calls, position, key=_POSITION)
    for past in reversed(calls[max(0, end - _LOOKBACK) : end]):
        if past.position <= since:
            break
        if accept(past):
            return past
    return None


def agrees(obj: dict[str, Any], other: dict[str, Any]) -> bool:
    """Whether two objects share keys with equal values (two, or all of `obj` if it has fewer)
    and differ on none of the keys they share."""
    common = obj.keys() & other.keys()
    if len(common) < min(2, len(obj)) or not common:
        return False
    return all(obj[key] == other[key] for key in common)


def result_object(result: ToolResult | None) -> dict[str, Any] | None:
    """A tool result's content as an object, when it is one (or a JSON string of one); a single
    wrapper key such as Gemini's `{"result": {...}}` is looked through."""
    if result is None:
        return None
    content = result.content
    if isinstance(content, list):
        content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
    if isinstance(content, str):
        if not content.lstrip().startswith("{"):
            return None
        try:
            content = json.loads(content)
        except (ValueError, RecursionError):
            return None
    if isinstance(content, dict) and len(content) == 1:
        inner = next(iter(content.values()))
        content = inner if isinstance(inner, dict) else content
    return content if isinstance(content, dict) else None


def _says_not_executed(content: Any) -> bool:
    """Whether a result's content holds inspector's note that its call was recovered and not run.
    The note's ";" is looked for first: a one-character test is a `memchr`, several times cheaper
    than looking for the whole note, and most results hold no ";"."""
    text = str(content)
    return ";" in text and NOT_EXECUTED in text
