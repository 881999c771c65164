"""A small horizontal bar chart as inline SVG (no script, no external asset): one bar per label,
its length proportional to the count; labels are escaped, as everything a session names may be
hostile."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from inspector.support.safe_text import preview

LABEL_WIDTH = 210
BAR_WIDTH = 300
ROW_HEIGHT = 24
MAX_ROWS = 40  # a chart is a glance: past this many bars, the rest are summed in one


def bar_chart(rows: Sequence[tuple[str, int]], title: str) -> str:
    """An `<svg>` element drawing `rows` (label, count), largest first as given."""
    rows = _capped(rows)
    most = max((count for _, count in rows), default=0) or 1
    height = ROW_HEIGHT * len(rows) + 8
    width = LABEL_WIDTH + BAR_WIDTH + 70
    bars = "".join(_bar(index, label, count, most) for index, (label, count) in enumerate(rows))
    return (
        f'<svg class="chart" role="img" aria-label="{escape(title)}" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}">'
        f"<title>{escape(title)}</title>{bars}</svg>"
    )


def _capped(rows: Sequence[tuple[str, int]]) -> list[tuple[str, int]]:
    if len(rows) <= MAX_ROWS:
        return list(rows)
    rest = rows[MAX_ROWS - 1 :]
    return [*rows[: MAX_ROWS - 1], (f"{len(rest)} others", sum(count for _, count in rest))]


def _bar(index: int, label: str, count: int, most: int) -> str:
    top = 4 + index * ROW_HEIGHT
    length = max(2, round(BAR_WIDTH * count / most))
    middle = top + ROW_HEIGHT // 2 + 4
    shown = escape(preview(label, 32))
    return (
        f'<text x="{LABEL_WIDTH - 8}" y="{middle}" text-anchor="end" font-size="13" fill="currentColor">{shown}</text>'
        f'<rect x="{LABEL_WIDTH}" y="{top + 3}" width="{length}" height="{ROW_HEIGHT - 6}" rx="3" fill="#c2410c"/>'
        f'<text x="{LABEL_WIDTH + length + 6}" y="{middle}" font-size="13" fill="currentColor">{count:,}</text>'
    )
