"""Which of a picker's columns fit the screen, and how wide each is: on a narrow screen the least
needed columns go first and the others shrink (their cells cut with "…"), on a wide one each
grows up to its longest cell (or its cap), so the last columns stay in view. On a very narrow
screen a column that grows `first` takes that width before the columns ranked after it are
shown: the findings read whole, and the least needed columns are left out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

PADDING = 2  # the table's blank cell either side of each column
FINDINGS_FIRST = 24  # the findings column grows to this first: "2 malformed-arguments +3"
NARROW = 68  # a table narrower than this (a screen under 70 cells) gives a column its first width first


@dataclass(frozen=True)
class ColumnSpec:
    """A picker column: its key, header, the width it is kept at least (less when its longest
    cell is shorter), its rank when the screen is too narrow for all (1: dropped last), the
    widest it grows to (None: its longest cell), and the width it grows to `first`, before any
    other column grows, when there is room for all of it (0: none)."""

    key: str
    label: str
    least: int
    rank: int
    most: int | None = None
    first: int = 0


def fitted(specs: Sequence[ColumnSpec], longest: Mapping[str, int], width: int) -> dict[str, int]:
    """The width of each column shown in `width` cells, in the specs' order; `longest` is the
    width of each column's longest cell (its header included)."""
    wanted = {spec.key: min(longest.get(spec.key, len(spec.label)), spec.most or width) for spec in specs}
    widths: dict[str, int] = {}
    room = width
    ranked = sorted(specs, key=lambda spec: spec.rank)
    for spec in ranked:
        least = min(spec.least, wanted[spec.key])
        if width < NARROW:  # its first width before the columns ranked after it: fewer columns, read whole
            least = max(least, min(spec.first, wanted[spec.key]))
        if least + PADDING <= room:
            widths[spec.key], room = least, room - least - PADDING
    for spec in ranked:
        more = min(spec.first, wanted[spec.key]) - widths.get(spec.key, wanted[spec.key])
        if 0 < more <= room:  # (when the room cannot take all of it, every column shares it)
            widths[spec.key], room = widths[spec.key] + more, room - more
    growing = [spec.key for spec in ranked if spec.key in widths]
    while room > 0 and growing:  # one cell at a time to each column still short of its longest
        growing = [key for key in growing if widths[key] < wanted[key]]
        for key in growing[:room]:
            widths[key] += 1
            room -= 1
    return {spec.key: widths[spec.key] for spec in specs if spec.key in widths}
