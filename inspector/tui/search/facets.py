"""The facets a search is narrowed by on the search screen: at most one value of each of kind,
tool, model and agent, chosen from the counts of the findings over what the query matches (the
counts `inspector search --facets` gives). Choosing a value chosen already clears it."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from inspector.search import FACETS, SearchFilter
from inspector.search.queries import UNKNOWN


@dataclass(frozen=True)
class FacetValue:
    """One value of a facet as listed: the facet, the value, its count, and whether it is chosen."""

    facet: str
    value: str
    count: int
    chosen: bool

    @property
    def choosable(self) -> bool:
        """Whether it narrows a search: '(unknown)' names no tool or model to look for."""
        return self.value != UNKNOWN


@dataclass(frozen=True)
class FacetChoice:
    """The value chosen of each facet (none chosen: no key)."""

    chosen: dict[str, str] = field(default_factory=dict)

    def toggled(self, facet: str, value: str) -> FacetChoice:
        """This choice with `value` chosen for `facet`, or cleared when it was the one chosen."""
        chosen = dict(self.chosen)
        if chosen.get(facet) == value:
            del chosen[facet]
        else:
            chosen[facet] = value
        return replace(self, chosen=chosen)

    def as_filter(self) -> SearchFilter:
        """The search's filter for the values chosen."""
        chosen = self.chosen.get
        return SearchFilter(kind=chosen("kind"), tool=chosen("tool"), model=chosen("model"), agent=chosen("agent"))

    def listed(self, counts: dict[str, dict[str, int]]) -> list[FacetValue]:
        """Every value of `counts` (most first, facet by facet), each chosen one listed even when
        nothing is counted for it any more, so that it can be cleared."""
        values: list[FacetValue] = []
        for facet in FACETS:
            counted = dict(counts.get(facet, {}))
            if facet in self.chosen:
                counted.setdefault(self.chosen[facet], 0)
            values.extend(
                FacetValue(facet, value, count, self.chosen.get(facet) == value) for value, count in counted.items()
            )
        return values
