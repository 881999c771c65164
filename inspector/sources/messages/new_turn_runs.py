"""Walking a repaired session as the writers of chained logs do (Claude Code, Qwen Code, Pi): the
turns read from the file, each edited one re-rendered, and each run of new turns (a repair's, with
no record of their own) placed between the file's turns it falls between."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from inspector.model import Turn


def walk_repaired(
    turns: Sequence[Turn],
    place: Callable[[list[Turn], Turn | None, Turn | None], None],
    edit: Callable[[Turn], None],
) -> None:
    """Call `edit` on each edited turn read from the file, and `place(new, before, after)` on each
    run of new turns with the file's turns around it (None at the start or the end)."""
    previous: Turn | None = None
    pending: list[Turn] = []
    for turn in turns:
        if turn.raw is None:
            pending.append(turn)
            continue
        if pending:
            place(pending, previous, turn)
            pending = []
        if turn.edited:
            edit(turn)
        previous = turn
    if pending:
        place(pending, previous, None)
