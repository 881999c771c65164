"""What a picker lists and in which order: every row as plain values (`ListedRow`), and the view
the person chose (`View`: a sort, a filter by findings, one by review status, a search), which
arranges them. No Textual here: the table draws what this arranges.

A row not scanned yet has no findings, turn count or status to sort or filter by: it goes after
those that have one, in its listing order, whichever way the sort goes, and a filter on findings
or status leaves it out until it is scanned.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from inspector.model import Location
from inspector.tui.picker.review_status import STATUSES, SessionKeys

if TYPE_CHECKING:
    from inspector.review.review_file import SessionKey

LISTED = "listed"  # the sort by the listing's own order
FLAGGED, CLEAN = "any finding", "no finding"  # findings filters besides a kind
SORT_NAMES = {
    LISTED: "listing order",
    "findings": "findings",
    "status": "review status",
    "turns": "turns",
    "format": "format",
    "file": "file",
    "session": "session",
    "tool": "tool",
    "project": "project",
}
MOST_FIRST = ("findings", "turns")  # sorts that start with the largest


@dataclass
class ListedRow:
    """One row of a picker, as values: its key, its file (whose review gives its status), the
    texts known from the listing by column (file, session; tool, project, date), its place in
    the listing, `words` it is also found by, then what the scan tells: turn count (a conversation's
    message count until then), format, findings by kind (None until scanned), each session's
    review key and findings' keys, the review status. `note` replaces the findings: why the file
    is unreadable (`unreadable`), or what Enter lists."""

    key: str
    path: Location
    names: dict[str, str]
    order: int = 0  # given by the table, as the row is listed
    words: str = ""
    turns: int | None = None
    format: str = ""
    kinds: Counter[str] | None = None
    sessions: tuple[tuple[SessionKey, SessionKeys], ...] = ()
    status: str = ""
    note: str = ""
    unreadable: bool = False

    @property
    def scanned(self) -> bool:
        """Whether the scan has told this row's findings."""
        return self.kinds is not None

    def matches(self, needle: str) -> bool:
        """Whether `needle` (case-folded) is in the row's names, words or format."""
        return any(needle in text.casefold() for text in (*self.names.values(), self.words, self.format))


@dataclass(frozen=True)
class View:
    """How the person asked to see the list: sorted by `sort` (the other way when `reverse`),
    only rows with findings of `kind` (or FLAGGED, CLEAN; None: every row), of review status
    `status`, and whose names or format hold `search`."""

    sort: str = LISTED
    reverse: bool = False
    kind: str | None = None
    status: str | None = None
    search: str = ""

    @property
    def default(self) -> bool:
        """Whether this is the listing as it comes: every row, in its order."""
        return self == View()

    def cycled(self, name: str, options: Sequence[Any], step: int = 1) -> View:
        """This view with its setting `name` moved `step` places round `options`."""
        current = getattr(self, name)
        place = options.index(current) if current in options else 0
        return replace(self, **{name: options[(place + step) % len(options)]})


def arranged(rows: Iterable[ListedRow], view: View) -> list[ListedRow]:
    """The rows `view` shows, in its order."""
    needle = view.search.casefold()
    kept = [row for row in rows if _kept(row, view, needle)]
    if view.sort == LISTED:
        return kept[::-1] if view.reverse else kept
    value = _SORT_VALUES.get(view.sort) or (lambda row: row.names.get(view.sort, "").casefold())
    known = [row for row in kept if value(row) is not None]
    unknown = [row for row in kept if value(row) is None]
    return sorted(known, key=value, reverse=view.reverse != (view.sort in MOST_FIRST)) + unknown


def kind_options(rows: Iterable[ListedRow]) -> list[str | None]:
    """The findings filters a list offers: every row, any finding, each kind found, no finding."""
    kinds = sorted({kind for row in rows if row.kinds for kind in row.kinds})
    return [None, FLAGGED, *kinds, CLEAN]


STATUS_OPTIONS: list[str | None] = [None, *STATUSES]


def described(view: View, shown: int, total: int, noun: str) -> str:
    """One line saying what the list shows: '12 of 2,000 sessions · sorted by findings, most
    first · with result-prefix · pending · matching "memo"'."""
    unit = noun.removesuffix("s") if total == 1 else noun  # "1 session", "0 of 1 session"
    parts = [f"{shown:,} of {total:,} {unit}" if shown != total else f"{total:,} {unit}"]
    if view.sort != LISTED or view.reverse:
        first = "most" if (view.sort in MOST_FIRST) != view.reverse else "least"
        way = f", {first} first" if view.sort in MOST_FIRST else ", reversed" if view.reverse else ""
        parts.append(f"sorted by {SORT_NAMES.get(view.sort, view.sort)}{way}")
    if view.kind is not None:
        parts.append(view.kind if view.kind in (FLAGGED, CLEAN) else f"with {view.kind}")
    if view.status is not None:
        parts.append(view.status)
    if view.search:
        parts.append(f"matching {view.search!r}")
    return " · ".join(parts)


def _kept(row: ListedRow, view: View, needle: str) -> bool:
    if view.kind is not None and not _has_kind(row, view.kind):
        return False
    if view.status is not None and (not row.scanned or row.status != view.status):
        return False
    return not needle or row.matches(needle)


def _has_kind(row: ListedRow, kind: str) -> bool:
    if row.kinds is None:
        return False
    if kind == FLAGGED:
        return bool(row.kinds)
    if kind == CLEAN:
        return not row.kinds
    return row.kinds[kind] > 0


_STATUS_RANK = {status: rank for rank, status in enumerate(STATUSES)}  # then none to review
_SORT_VALUES: dict[str, Callable[[ListedRow], Any]] = {
    LISTED: lambda row: row.order,
    "findings": lambda row: None if row.kinds is None else sum(row.kinds.values()),
    "turns": lambda row: row.turns,
    "status": lambda row: None if not row.scanned else _STATUS_RANK.get(row.status, len(STATUSES)),
    "format": lambda row: row.format.casefold() or None,
}
