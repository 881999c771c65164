"""The rates line of a picker: the rates `inspector scan` reports (`inspector.scan.rates`: the
findings of the kinds about tool calls, per 100 tool calls, by model and by tool) summed
over the sessions scanned so far, in one line that says how many of the findings are rated, with the
worst tool and model; and the widget showing it in at most `LINES` lines, its parts that do not fit
(the worst model, then the worst tool) left out whole rather than cut."""

from __future__ import annotations

import textwrap
from collections import Counter

from rich.text import Text
from textual.widgets import Static

from inspector.scan.rates import UNKNOWN_MODEL, Rates
from inspector.support.safe_text import preview

NAME_WIDTH = 24  # a longer tool or model name is cut
LINES = 2  # the most lines the rates take above a list
SEPARATOR = " · "


class RatesLine(Static):
    """The rates line above a list, fitted to its width again when it changes."""

    DEFAULT_CSS = f"RatesLine {{ height: auto; max-height: {LINES}; padding: 0 1; color: $text-muted; }}"

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self._parts: list[str] = []

    def show(self, rates: Rates, done: bool) -> None:
        """Show `rates` (`done`: every session is scanned)."""
        self._parts = rate_parts(rates, done)
        self._fit()

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        self.update(Text(fitted(self._parts, self.content_size.width)))


def fitted(parts: list[str], width: int) -> str:
    """The parts joined, the last ones left out while they take more than `LINES` lines of `width`
    characters (the first is always kept; a width of 0, not laid out yet, keeps them all)."""
    kept = list(parts)
    while (
        width > 0 and len(kept) > 1 and len(textwrap.wrap(SEPARATOR.join(kept), width, break_on_hyphens=False)) > LINES
    ):
        kept.pop()
    return SEPARATOR.join(kept)


def rate_parts(rates: Rates, done: bool) -> list[str]:
    """The parts of the rates line, joined by `SEPARATOR`: 'Rates: 4 of 9 findings are of a kind about
    tool calls, 3.1 per 100 tool calls (130 calls)', 'worst tool: save_memory 2 in 5 calls', 'worst
    model: gpt-4o 3 in 40 calls'; no rate when none is of such a kind. `done`: every session is
    scanned (else the line says "so far")."""
    label = "Rates" if done else "Rates so far"
    calls, rated, found = sum(rates.calls.values()), sum(rates.kinds.values()), rates.findings
    if not calls:
        return [f"{label}: no tool calls"]
    if not found:
        return [f"{label}: no findings in {_count(calls, 'tool call')}"]
    if not rated:
        which = "the one finding is not" if found == 1 else f"none of the {found:,} findings is"
        return [f"{label}: {which} of a kind about tool calls ({_count(calls, 'tool call')})"]
    parts = [
        f"{label}: {rated:,} of {_count(found, 'finding')} {'is' if rated == 1 else 'are'} of a kind about tool calls, "
        f"{100 * rated / calls:.1f} per 100 tool calls ({_count(calls, 'call')})"
    ]
    for place, group in ((1, "tool"), (0, "model")):
        worst = _worst(rates, place)
        if worst is not None and not (group == "model" and worst[0] == UNKNOWN_MODEL):
            name, count, of = worst
            parts.append(f"worst {group}: {preview(name, NAME_WIDTH)} {count} in {_count(of, 'call')}")
    return parts


def _worst(rates: Rates, place: int) -> tuple[str, int, int] | None:
    """The name (model: `place` 0, tool: 1) with the most findings (then the most per call), its
    findings and calls; None when nothing was found. A finding that names no tool counts for its
    model only, as in `inspector scan`'s rates."""
    calls: Counter[str] = Counter()
    found: Counter[str] = Counter()
    for key, count in rates.calls.items():
        calls[key[place]] += count
    for (model, tool, _), count in rates.kinds.items():
        name = (model, tool)[place]
        if name is not None:
            found[name] += count
    if not found:
        return None
    name = max(found, key=lambda name: (found[name], found[name] / max(calls[name], 1)))
    return name, found[name], calls[name]


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}{'' if number == 1 else 's'}"
