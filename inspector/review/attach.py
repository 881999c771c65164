"""A review file's record as a review uses it: each saved decision and execution of the sessions
read keyed by the finding it is about now (`anchors.reattach`), whatever messages were inserted or
deleted since it was saved; those matching no finding keep their saved keys (kept in the file,
never applied).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain

from inspector.review.anchors import FindingKey, SavedKey, reattach
from inspector.review.review_file import ReviewRecord, SessionKey


def attached(
    record: ReviewRecord,
    sessions: Sequence[SessionKey],
    keys: Sequence[Sequence[FindingKey]],
    positional: Sequence[Sequence[str]],
    numbers: Iterable[int],
) -> ReviewRecord:
    """`record` (changed in place, and returned) with the saved keys of the sessions `numbers` (their
    places in `sessions`, whose findings' keys are `keys` and earlier versions' keys `positional`)
    moved to the findings they are about now."""
    saved: dict[SessionKey, set[SavedKey]] = {}
    for session, key in chain(record.decisions, record.executions or {}):
        saved.setdefault(session, set()).add(key)
    moved: dict[tuple[SessionKey, SavedKey], FindingKey] = {}
    for number in numbers:
        session = sessions[number]
        found = reattach(sorted(saved.get(session, ()), key=_saved_order), keys[number], positional[number])
        moved.update(((session, old), new) for old, new in found.items() if old != new)
    if moved:
        record.decisions = {_moved(key, moved): decision for key, decision in record.decisions.items()}
        if record.executions:
            record.executions = {_moved(key, moved): runs for key, runs in record.executions.items()}
    return record


def _moved(
    key: tuple[SessionKey, SavedKey], moved: dict[tuple[SessionKey, SavedKey], FindingKey]
) -> tuple[SessionKey, SavedKey]:
    return (key[0], moved[key]) if key in moved else key


def _saved_order(key: SavedKey) -> tuple[int | str, ...]:
    """Saved keys in the order they were in the session (a set has none), so ties go the same way
    in every inspector: by their turn then, then by what they say."""
    if isinstance(key, FindingKey):
        return key.turn, key.place, key.occurrence, key.content, key.message or "", key.before or "", key.after or ""
    return -1, str(key)
