"""Which defined tool a call of an unknown tool most likely meant, and whether one is clearly best.

A candidate's score adds up three things: how alike the names are (0 to 1: difflib's ratio of the
lower-cased names, or of their words in sorted order when higher, so `file_read` matches
`read_file`), the share of the call's argument names that are its parameters (0 to 1), and 0.5
when the arguments validate against its schema as they are.

A rename is offered only when the best candidate is clearly best: its score leads the runner-up's
by at least `RENAME_MARGIN` (0.5, as much as validating alone is worth), its name is at least
`MIN_NAME_SIMILARITY` (0.5) alike, and the call's arguments validate against its schema unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from inspector.model import ToolSpec
from inspector.support.lazy_pattern import lazy_pattern

RENAME_MARGIN = 0.5
MIN_NAME_SIMILARITY = 0.5
VALIDATES_BONUS = 0.5
_WORD = lazy_pattern(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


@dataclass(frozen=True)
class Candidate:
    """A defined tool ranked against an unknown call."""

    name: str
    score: float
    name_similarity: float
    validates: bool


def rank(
    name: str,
    args: dict[str, Any] | None,
    defined: Iterable[ToolSpec],
    validates: Callable[[str, dict[str, Any]], bool],
) -> list[Candidate]:
    """Every defined tool as a candidate for a call of `name` with `args`, best first (ties by name);
    `validates(tool, args)` says whether the arguments validate against a tool."""
    ranked = []
    for spec in defined:
        similarity = name_similarity(name, spec.name)
        ok = args is not None and validates(spec.name, args)
        score = similarity
        if args:
            score += sum(key in spec.properties for key in args) / len(args) + (VALIDATES_BONUS if ok else 0.0)
        ranked.append(Candidate(spec.name, round(score, 2), round(similarity, 2), ok))
    return sorted(ranked, key=lambda c: (-c.score, c.name))


def name_similarity(called: str, defined: str) -> float:
    """How alike two tool names are, 0 to 1, ignoring case and the order of their words."""
    from difflib import SequenceMatcher  # (loaded once a call names no tool offered: most scans never do)

    plain = SequenceMatcher(None, called.lower(), defined.lower()).ratio()
    words = SequenceMatcher(None, _sorted_words(called), _sorted_words(defined)).ratio()
    return max(plain, words)


def rename_target(ranked: list[Candidate]) -> tuple[Candidate | None, str]:
    """The clearly best candidate and why it is, or None and why no candidate is."""
    if not ranked:
        return None, "no tool is defined"
    best = ranked[0]
    runner_up = ranked[1] if len(ranked) > 1 else None
    lead = best.score - (runner_up.score if runner_up else 0.0)
    if runner_up is not None and lead < RENAME_MARGIN:
        return None, (
            f"{best.name} ({best.score:.2f}) and {runner_up.name} ({runner_up.score:.2f}) score within "
            f"{RENAME_MARGIN} of each other, so neither is clearly meant"
        )
    if not best.validates:
        return None, f"the arguments do not validate against {best.name}"
    if best.name_similarity < MIN_NAME_SIMILARITY:
        return None, (
            f"{best.name}'s name is too unlike the called one (similarity {best.name_similarity:.2f}, "
            f"at least {MIN_NAME_SIMILARITY} needed)"
        )
    against = f"{lead:.2f} ahead of {runner_up.name}" if runner_up else "the only defined tool"
    return best, f"it scores {best.score:.2f}, {against}, and the arguments validate against it"


def _sorted_words(name: str) -> str:
    return " ".join(sorted(word.lower() for word in _WORD.findall(name)))
