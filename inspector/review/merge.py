"""Two inspectors on one review file: each save takes in the other's decisions instead of writing
over them.

Two apps may review the same session file at once: one forgotten in another terminal, one opened
again after the terminal of the first was lost, one on each side of a split screen. Locking the
review for the second one (read-only, with a message) was the other choice; it was not taken
because the person at 2 am who meets it has a session to review and an inspector that will not
let them, for the sake of a window they may not find (a suspended process, a detached tmux
pane), and whatever they decided in that window would still be stuck there. Merging asks
nothing of them and loses nothing: both go on deciding, and each is told what the other added.

So every save takes an exclusive lock (`inspector.support.file_lock`, on `NAME.review.json.lock`
beside the review file in the state folder), reads the review file again, and merges three ways
against the decisions this inspector last read or wrote (its base): a decision this inspector has
not touched since takes the other's (decided, changed or undone there); one it decided or undid
keeps its own; one both changed differently keeps this inspector's, the later save (a conflict,
counted).
The merged review is written atomically, becomes the new base, and is what the app shows; a
one-line notice says how many decisions came from the other inspector, and how many conflicts.
Executions merge the same way; exports made by either are all kept.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from inspector.model import Location
from inspector.review.anchors import SavedKey
from inspector.review.edits import Edit
from inspector.review.review_file import (
    Decision,
    ReviewRecord,
    SessionKey,
    make_review_folder,
    read_review,
    write_review,
)
from inspector.review.review_layout import revision_of
from inspector.support.file_lock import exclusive_lock

Key = TypeVar("Key", bound=Hashable)
Value = TypeVar("Value")
Meaning = TypeVar("Meaning")


@dataclass
class Changed:
    """What this inspector changed since its base, by key: decisions (decided or undone here) and
    executions (run here)."""

    decisions: set[tuple[SessionKey, SavedKey]] = field(default_factory=set)
    runs: set[tuple[SessionKey, SavedKey]] = field(default_factory=set)

    def clear(self) -> None:
        """Forget them: they are saved."""
        self.decisions.clear()
        self.runs.clear()


@dataclass(frozen=True)
class Merged:
    """A review merged with the one another inspector saved: the merged record, how many decisions
    it took from the other (`adopted`), and how many findings both decided differently (`conflicts`,
    this inspector's decision kept)."""

    record: ReviewRecord
    adopted: int = 0
    conflicts: int = 0


def save_merging(
    path: Path,
    source: Location,
    base: ReviewRecord,
    mine: ReviewRecord,
    changed: Changed,
    attach: Callable[[ReviewRecord], ReviewRecord],
    conversations: Sequence[str] | None,
) -> Merged:
    """Save `mine` (`changed` since `base`) at `path`, merged
    under the lock with what another inspector saved there since `base` (read, then `attach`ed to
    this review's findings; not read when its revision is still `base`'s: nobody saved since). An
    `InspectorError` when the lock, the read or the write fails; nothing is written then."""
    make_review_folder(path)
    with exclusive_lock(path.with_name(path.name + ".lock"), "save the review"):
        unchanged = not path.exists() or (base.revision is not None and revision_of(path) == base.revision)
        merged = (
            Merged(mine) if unchanged else merge_records(base, mine, attach(read_review(path, conversations)), changed)
        )
        merged.record.revision = write_review(path, source, merged.record)
    return merged


def merge_records(base: ReviewRecord, mine: ReviewRecord, theirs: ReviewRecord, changed: Changed) -> Merged:
    """`mine` and `theirs` merged three ways against `base`, what both started from: what `changed`
    here keeps mine, the rest takes theirs."""
    decisions, adopted, conflicts = _merge(
        base.decisions, mine.decisions, theirs.decisions, changed.decisions, _meaning
    )
    executions, _, _ = _merge(
        base.executions or {}, mine.executions or {}, theirs.executions or {}, changed.runs, _same
    )
    exports = list(theirs.exports or []) + list(mine.exports or [])[len(base.exports or []) :]
    unexported = mine.unexported if mine.unexported != base.unexported else theirs.unexported
    record = ReviewRecord(decisions, unexported or adopted > 0, exports, executions or None, mine.read_by_place)
    return Merged(record, adopted, conflicts)


def snapshot(record: ReviewRecord) -> ReviewRecord:
    """A copy of `record` that later decisions (which change its dictionaries) leave as it is."""
    return ReviewRecord(
        dict(record.decisions),
        record.unexported,
        list(record.exports or []),
        None if record.executions is None else dict(record.executions),
        record.read_by_place,
        record.revision,
    )


def _merge(
    base: dict[Key, Value],
    mine: dict[Key, Value],
    theirs: dict[Key, Value],
    changed: Collection[Key],
    meaning: Callable[[Value | None], Meaning],
) -> tuple[dict[Key, Value], int, int]:
    """Each key's value: mine where it `changed` here, else theirs; with how many values taken from
    theirs differ in `meaning` from mine, and how many changed keys theirs changed differently too."""
    merged: dict[Key, Value] = {}
    adopted = conflicts = 0
    for key in {**base, **mine, **theirs}:
        other = meaning(theirs.get(key))
        if key in changed:
            chosen, conflicts = mine, conflicts + (other not in (meaning(base.get(key)), meaning(mine.get(key))))
        else:
            chosen, adopted = theirs, adopted + (other != meaning(mine.get(key)))
        if key in chosen:
            merged[key] = chosen[key]
    return merged, adopted, conflicts


def _meaning(decision: Decision | None) -> tuple[str, Edit | None] | None:
    """What a decision says, not when it was taken (counting a decision taken the same in both as no
    conflict)."""
    return None if decision is None else (decision.status, decision.edit)


def _same(value: Value) -> Value:
    return value
