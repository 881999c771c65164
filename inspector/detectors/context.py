"""What detectors look up across a session: its catalogue and indexes over its calls and
results. Indexes are built once per scan, and only when a detector first needs them."""

from __future__ import annotations

import json
from bisect import bisect_right
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from inspector.catalogue import Catalogue
from inspector.model import Session, ToolCall, ToolResult

# How many earlier calls to compare, most recent first, per lookup: bounds the work on huge sessions.
_LOOKBACK = 64


@dataclass(frozen=True)
class PastCall:
    """A structured call that the session records, with the turn it is in and its result."""

    position: int
    call: ToolCall
    result: ToolResult | None


class ScanContext:
    """A session, its tool catalogue, and indexes over its calls and results."""

    def __init__(self, session: Session, catalogue: Catalogue) -> None:
        self.session = session
        self.catalogue = catalogue

    @cached_property
    def past_calls(self) -> list[PastCall]:
        """Every structured call in session order, paired with its result (by id, else by name)."""
        by_id: dict[str, ToolResult] = {}
        by_name: dict[str, list[ToolResult]] = {}
        for turn in self.session.turns:
            for result in turn.tool_results:
                if result.call_id:
                    by_id[result.call_id] = result
                elif result.name:
                    by_name.setdefault(result.name, []).append(result)
        calls = []
        for turn in self.session.turns:
            for call in turn.tool_calls:
                result = by_id.get(call.id) if call.id else None
                if result is None and by_name.get(call.name):
                    result = by_name[call.name].pop(0)
                calls.append(PastCall(turn.position, call, result))
        return calls

    @cached_property
    def _calls_by_tool(self) -> dict[str, list[PastCall]]:
        index: dict[str, list[PastCall]] = {}
        for past in self.past_calls:
            index.setdefault(past.call.name, []).append(past)
        return index

    @cached_property
    def _results_by_text_value(self) -> dict[tuple[str, str], list[tuple[PastCall, dict[str, Any]]]]:
        index: dict[tuple[str, str], list[tuple[PastCall, dict[str, Any]]]] = {}
        for past in self.past_calls:
            content = result_object(past.result)
            for key, value in (content or {}).items():
                if isinstance(value, str) and value:
                    index.setdefault((key, value), []).append((past, content))
        return index

    def matching_call(self, tool: str, arguments: dict[str, Any], position: int) -> PastCall | None:
        """The latest call of `tool` up to `position` whose arguments agree with `arguments`."""
        calls = self._calls_by_tool.get(tool, [])
        end = bisect_right(calls, position, key=lambda past: past.position)
        for past in reversed(calls[max(0, end - _LOOKBACK):end]):
            if past.call.arguments and agrees(arguments, past.call.arguments):
                return past
        return None

    def matching_result(self, obj: dict[str, Any], position: int) -> PastCall | None:
        """The latest call up to `position` whose result agrees with `obj` (a text value shared,
        no value in conflict)."""
        index = self._results_by_text_value
        lists = sorted((index.get((k, v), []) for k, v in obj.items() if isinstance(v, str) and v), key=len)
        for entries in lists:
            end = bisect_right(entries, position, key=lambda entry: entry[0].position)
            for past, content in reversed(entries[max(0, end - _LOOKBACK):end]):
                if agrees(obj, content):
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
        except (json.JSONDecodeError, RecursionError):
            return None
    if isinstance(content, dict) and len(content) == 1:
        inner = next(iter(content.values()))
        content = inner if isinstance(inner, dict) else content
    return content if isinstance(content, dict) else None
