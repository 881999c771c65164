"""A text cut into pieces, each with the marks that apply to it (the fault, what a repair removed
or added, a redaction), for a report to show; long stretches are shortened to their two ends, so
no turn, however large, makes the report huge."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from inspector.model import Span

FAULT = "fault"  # what a detector flagged
REMOVED = "removed"  # what the repair takes out
ADDED = "added"  # what the repair puts in
REDACTED = "redacted"  # a secret's mask (`--redact`)
ELIDED = "elided"  # a note standing for characters not shown

KEEP = 1_500  # a stretch longer than this many characters (twice, with the note) is shortened to its ends


@dataclass(frozen=True)
class Piece:
    """A stretch of text and its marks."""

    text: str
    marks: frozenset[str] = frozenset()


def marked_pieces(text: str, marks: Mapping[str, Sequence[Span]]) -> tuple[Piece, ...]:
    """`text` cut wherever a mark's span starts or ends, each piece with the marks covering it;
    each stretch longer than `KEEP` characters on both sides of the cut shortened to its ends.
    One sweep over the sorted cuts: linear in the text and the spans, however many."""
    merged = {name: _merged(spans, len(text)) for name, spans in marks.items()}
    bounds = sorted({0, len(text)}.union(*(edge for spans in merged.values() for edge in spans)))
    next_span = dict.fromkeys(merged, 0)
    pieces: list[Piece] = []
    for start, end in itertools.pairwise(bounds):
        covering = set()
        for name, spans in merged.items():
            index = next_span[name]
            while index < len(spans) and spans[index][1] <= start:
                index += 1
            next_span[name] = index
            if index < len(spans) and spans[index][0] <= start:
                covering.add(name)
        pieces.extend(_shortened(Piece(text[start:end], frozenset(covering))))
    return tuple(pieces)


def _merged(spans: Sequence[Span], length: int) -> list[Span]:
    """The non-empty spans within [0, length), sorted, those overlapping or touching merged."""
    merged: list[Span] = []
    for start, end in sorted((max(0, min(start, length)), max(0, min(end, length))) for start, end in spans):
        if start >= end:
            continue
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _shortened(piece: Piece) -> list[Piece]:
    """The piece, or, when longer than twice `KEEP`, its two ends around a note saying how many
    characters are not shown (a redaction's mask is never cut)."""
    if len(piece.text) <= 2 * KEEP + 100 or REDACTED in piece.marks:
        return [piece]
    hidden = len(piece.text) - 2 * KEEP
    note = Piece(f" … {hidden:,} characters not shown … ", frozenset({ELIDED}))
    return [Piece(piece.text[:KEEP], piece.marks), note, Piece(piece.text[-KEEP:], piece.marks)]
