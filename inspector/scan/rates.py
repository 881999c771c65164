"""Rates of the problems with tool calls (a healthy system has under 2% calls that never ran).

Per session and in total: the number of tool calls (structured, plus those recovered from text by
a fix) and, for each kind about tool calls, its count and rate per 100 calls, broken down by model
(where the format records one: the model a format read for a reply, a per-message `model`, or a
top-level `model` key) and by tool (a finding that names no tool, as most announced actions do,
counts in the totals and for its model only). Every kind is about tool calls but two: `secret`
(about what the session holds) and `tool-error` (a note that a tool failed, not a failure of the
model's). Notes are not counted: an `info` finding (markup or a fake result in a model's
thinking, where it harms nothing) is no problem.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, TypeVar

from inspector.model import INFO, Finding, Session, Turn

# The rated kinds, in the order the detectors run (and the reports list them): their names, written
# out so that counting them (the picker does as it lists sessions) imports no detector; a test checks
# them against the detectors' registry, less `NOT_RATED`.
KINDS: tuple[str, ...] = (
    "result-prefix",
    "malformed-arguments",
    "orphan-call",
    "orphan-result",
    "claimed-execution",
    "tool-markup",
    "unknown-tool",
    "invalid-argument",
    "unknown-parameter",
    "wrong-type",
    "claimed-success",
    "mismatched-result",
    "repeated-call",
    "fake-result-block",
    "relayed-fake-result",
    "narrated-action",
)
NOT_RATED = ("tool-error", "secret")  # a note that a tool failed; a secret the session holds
_RATED = frozenset(KINDS)
UNKNOWN_MODEL = "unknown"
_Key = TypeVar("_Key")


class Rates:
    """Counts of calls and of findings by (model, tool), summed up when reported, and `findings`:
    the findings of every kind, of which those of the rated kinds are counted in `kinds`."""

    def __init__(self) -> None:
        self.calls: Counter[tuple[str, str]] = Counter()
        self.kinds: Counter[tuple[str, str | None, str]] = Counter()
        self.findings = 0

    def add(self, model: str, tool: str | None, kind: str | None = None) -> None:
        """Count one call of `tool` by `model`, or, with `kind`, one finding of that kind on it
        (`tool` None: a finding that names no tool; a call always names one)."""
        if kind is not None:
            self.kinds[model, tool, kind] += 1
        elif tool is not None:
            self.calls[model, tool] += 1

    def update(self, other: Rates) -> None:
        """Add the counts of `other` (another session's) to these (added one by one: `Counter.update`
        first checks that its argument is a `Mapping`, which takes longer than adding a session's
        few counts)."""
        _add_counts(self.calls, other.calls)
        _add_counts(self.kinds, other.kinds)
        self.findings += other.findings

    def to_json(self) -> dict[str, Any]:
        """The counts in the report's shape: the calls and kinds in all, then `by_model` and `by_tool`
        (each sorted by name; a name with findings but no call has 0 calls)."""
        model_calls: dict[str, int] = {}
        tool_calls: dict[str, int] = {}
        for (model, tool), count in self.calls.items():
            model_calls[model] = model_calls.get(model, 0) + count
            tool_calls[tool] = tool_calls.get(tool, 0) + count
        model_found: dict[str, dict[str, int]] = {}
        tool_found: dict[str, dict[str, int]] = {}
        total_found: dict[str, int] = {}
        for (model, named, kind), count in self.kinds.items():
            _add(model_found, model, kind, count)
            _add(tool_found, named, kind, count)
            total_found[kind] = total_found.get(kind, 0) + count
        return {
            **_entry(sum(self.calls.values()), total_found),
            "by_model": _entries(model_calls, model_found),
            "by_tool": _entries(tool_calls, tool_found),
        }


def _add_counts(counts: Counter[_Key], more: Counter[_Key]) -> None:
    """Add the counts of `more` to `counts`."""
    for key, count in more.items():
        counts[key] = counts.get(key, 0) + count


def _add(found: dict[str, dict[str, int]], name: str | None, kind: str, count: int) -> None:
    """Add `count` findings of `kind` to `name`'s (none when the finding does not name one)."""
    if name is not None:
        counts = found.setdefault(name, {})
        counts[kind] = counts.get(kind, 0) + count


def _entries(calls: dict[str, int], found: dict[str, dict[str, int]]) -> dict[str, Any]:
    """One entry per name with calls or findings, sorted by name."""
    names = sorted(calls.keys() | found.keys()) if found else sorted(calls)
    return {name: _entry(calls.get(name, 0), found.get(name)) for name in names}


def _entry(calls: int, found: dict[str, int] | None) -> dict[str, Any]:
    """The calls and each kind's count and rate per 100 calls, to two decimals (None without calls),
    from the counts of the kinds `found`. Most entries have no finding (a file of many small sessions
    has tens of thousands): those share one `kinds` object, which the report only reads."""
    if not found:
        return {"calls": calls, "kinds": _NOTHING_FOUND if calls else _NOTHING_FOUND_WITHOUT_CALLS}
    return {"calls": calls, "kinds": {kind: _rate(found.get(kind, 0), calls) for kind in KINDS}}


def _rate(count: int, calls: int) -> dict[str, Any]:
    """A kind's count and rate per 100 calls (None without calls; 0 needs no division)."""
    return {"count": count, "per_100_calls": None if not calls else round(100 * count / calls, 2) if count else 0.0}


_NOTHING_FOUND = {kind: _rate(0, 1) for kind in KINDS}
_NOTHING_FOUND_WITHOUT_CALLS = {kind: _rate(0, 0) for kind in KINDS}


def session_model(session: Session) -> str | None:
    """The model the whole session records (a top-level `model` key), if any."""
    document = getattr(session.document, "value", session.document)  # formats keep the parsed file in `.value`
    if isinstance(document, list) and 0 <= session.index < len(document):
        document = document[session.index]
    model = document.get("model") if isinstance(document, dict) else None
    return model if isinstance(model, str) and model else None


def _turn_model(turn: Turn, default: str) -> str:
    """The model the format read for `turn`, else its record's `model` key, else `default`."""
    if turn.model:
        return turn.model
    model = turn.raw.get("model") if isinstance(turn.raw, dict) else None
    return model if isinstance(model, str) and model else default


def session_rates(session: Session, findings: Sequence[Finding]) -> Rates:
    """The calls of one session and its findings of the rated kinds (notes aside), by model and tool
    (and the number of its findings of every kind)."""
    rates = Rates()
    rates.findings = len(findings)
    default = session_model(session) or UNKNOWN_MODEL
    models: dict[int, str] = {}  # the author of each turn with calls or findings, by position
    calls = rates.calls  # counted here, not through `add`: a long session has tens of thousands of calls
    for turn in [turn for turn in session.turns if turn.tool_calls]:  # most turns have no call
        models[turn.position] = model = _turn_model(turn, default)
        for call in turn.tool_calls:
            calls[model, call.name] += 1
    seen: set[str | None] = set()
    for finding in findings:
        author = models.get(finding.turn)
        if author is None:
            flagged = session.turn_at(finding.turn)
            author = models[finding.turn] = _turn_model(flagged, default) if flagged is not None else default
        for call in finding.fix.add_calls if finding.fix is not None else ():
            if call.id is None or call.id not in seen:
                seen.add(call.id)
                rates.add(author, call.name)
        if finding.kind in _RATED and finding.severity != INFO:
            rates.add(author, finding.tool, finding.kind)
    return rates
