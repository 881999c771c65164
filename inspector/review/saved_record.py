"""The review file as a review holds it: its record read when the review opens, and saved the
moment a decision changes it, merged with what another inspector saved there meanwhile (`merge`).

When a save fails (a read-only state folder, say), deciding goes on in memory and the reason is
said once; after a save took in another inspector's decisions, that is said once too.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from pathlib import Path

from inspector.errors import InspectorError
from inspector.model import Location
from inspector.review.anchors import FindingKey
from inspector.review.merge import Changed, Merged, save_merging, snapshot
from inspector.review.review_file import APPROVED, EDITED, ReviewRecord, SessionKey, read_review
from inspector.support.safe_text import shown_name

Attach = Callable[[ReviewRecord], ReviewRecord]  # a record keyed by the findings read (`FindingNames.attach`)


class SavedRecord:
    """The review's record (`record`), the record as last read or saved (what a merge starts
    from), what changed since (`changed`), and whether the last save failed."""

    def __init__(
        self,
        path: Path,
        resumed: Path,
        source: Location,
        conversations: Sequence[str] | None,
        attach: Attach,
    ) -> None:
        """The record saved at `path` (resumed from `resumed`, an earlier version's file, when
        only that exists), of the sessions of `source` (of a database: the ids of its
        `conversations` in order, by which a version 1 file is read), `attach`ed to the findings."""
        self.path = path
        self._source = source
        self._conversations = conversations
        self._attach = attach
        self.record = attach(read_review(resumed, conversations))
        self._base = snapshot(self.record)
        self.changed = Changed()  # since the base
        self._unsaved: str | None = None  # why the last save failed, if it did
        self._unsaved_said: str | None = None
        self._merged: Merged | None = None  # the last save's merge, when it took in another inspector's decisions

    def attach_also(self, attach: Attach) -> None:
        """Key the record (and its base) by the findings of sessions added to the review too."""
        self.record = attach(self.record)
        self._base = attach(self._base)

    def save(self) -> None:
        """Save the record, merged with what another inspector saved meanwhile; when it cannot be
        saved, keep it in memory and remember why."""
        try:
            merged = save_merging(
                self.path, self._source, self._base, self.record, self.changed, self._attach, self._conversations
            )
        except InspectorError as error:
            self._unsaved = self._unsaved or str(error)
            return
        self._unsaved = None
        self.record, self._base = merged.record, snapshot(merged.record)
        self.changed.clear()
        if merged.adopted or merged.conflicts:
            self._merged = merged

    def merge_notice(self) -> str | None:
        """Once after a save took in decisions another inspector saved, or kept this one's on
        findings both decided differently: one line saying how many; None otherwise."""
        merged, self._merged = self._merged, None
        if merged is None:
            return None
        conflicts = (
            f"{merged.conflicts} conflict{'s' if merged.conflicts != 1 else ''} (a finding both decided "
            "differently): this one's decision, the later, was kept"
        )
        if not merged.adopted:
            return f"{conflicts[:1].upper()}{conflicts[1:]} over another inspector's"
        line = f"Merged {_decisions(merged.adopted)} saved by another inspector"
        return f"{line}; {conflicts}" if merged.conflicts else line

    def unsaved_notice(self) -> str | None:
        """Once, after a save failed: a line saying why and where the decisions could go; None
        otherwise (and again after a save succeeds and a later one fails)."""
        if self._unsaved is None or self._unsaved_said == self._unsaved:
            return None
        self._unsaved_said = self._unsaved
        return (
            f"Decisions cannot be saved ({self._unsaved}): they are kept while the app is open. Export them "
            f"(x), or make {shown_name(self.path.parent)} writable, or set XDG_STATE_HOME to a writable folder"
        )

    def approved_elsewhere(self, read: Collection[SessionKey]) -> list[SessionKey]:
        """The session of each approved or edited fix saved for a session not among those `read`
        into the review (one entry per fix)."""
        return [
            session
            for (session, _), decision in self.record.decisions.items()
            if decision.status in (APPROVED, EDITED) and session not in read
        ]

    def missing(self, present: Collection[SessionKey]) -> dict[SessionKey, int]:
        """The sessions with decisions saved that are not `present`, with how many decisions each."""
        missing: dict[SessionKey, int] = {}
        for session, _ in self.record.decisions:
            if session not in present:
                missing[session] = missing.get(session, 0) + 1
        return missing

    def unmatched(self, findings: dict[SessionKey, Collection[FindingKey]]) -> int:
        """How many decisions saved for the sessions of `findings` name none of their findings."""
        return sum(
            1 for session, finding in self.record.decisions if session in findings and finding not in findings[session]
        )


def _decisions(count: int) -> str:
    return f"{count} decision{'s' if count != 1 else ''}"
