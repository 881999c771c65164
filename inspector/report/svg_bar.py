"""The bar of a count in a table row, as inline SVG (no script, no external asset): its length
proportional to the count against the largest of the table. SVG, not a coloured box of CSS, so a
printed page (which leaves out backgrounds) keeps its bars."""

from __future__ import annotations

BAR_WIDTH = 300  # pixels: the bar of the largest count
BAR_HEIGHT = 14


def bar(count: int, most: int) -> str:
    """An `<svg>` element drawing `count`'s bar against `most`, the largest count it is drawn with
    (at least 2 pixels long: a count of 1 among thousands still shows). Hidden from screen
    readers: the count is the cell beside it."""
    length = max(2, round(BAR_WIDTH * count / max(most, 1)))
    return (
        f'<svg class="bar" aria-hidden="true" width="{length}" height="{BAR_HEIGHT}" '
        f'viewBox="0 0 {length} {BAR_HEIGHT}"><rect width="{length}" height="{BAR_HEIGHT}" rx="3" fill="#c2410c"/></svg>'
    )
