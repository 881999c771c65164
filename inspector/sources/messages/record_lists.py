"""Rebuilding a session's record list from its repaired turns, as every writer of a list of
records does (the file formats, the SQL schemas that keep a conversation as a list).

A writer never rebuilds a record it was not asked to change: `rebuild_records` walks the original
list, keeps every untouched record (odd ones included) as the very same object, swaps in
re-rendered edited turns and inserts the turns a repair added.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import TypeVar

from inspector.model import Turn

Record = TypeVar("Record")


def rebuild_records(
    records: list[Record],
    turns: Iterable[Turn],
    render_edited: Callable[[Turn], Record],
    render_new: Callable[[Turn], list[Record]],
) -> list[Record]:
    """The session's record list after repair.

    Turns with `raw` set point at their original record; an `edited` one is replaced by
    `render_edited(turn)`. Turns without `raw` are new: `render_new(turn)` gives their records,
    inserted before the next original turn (or at the end).
    """
    replaced: dict[int, Record] = {}
    inserted: defaultdict[int, list[Record]] = defaultdict(list)
    pending: list[Record] = []
    for turn in turns:
        if turn.raw is None:
            pending.extend(render_new(turn))
            continue
        if pending:
            inserted[id(turn.raw)].extend(pending)
            pending = []
        if turn.edited:
            replaced[id(turn.raw)] = render_edited(turn)
    changed = replaced.keys() | inserted.keys()
    out: list[Record] = []
    kept = 0  # the first record not yet in `out`: those up to a changed one are copied at once
    for index in [index for index, key in enumerate(map(id, records)) if key in changed]:
        record = records[index]
        out += records[kept:index]
        out += inserted.get(id(record), ())
        out.append(replaced.get(id(record), record))
        kept = index + 1
    out += records[kept:]
    out += pending
    return out
