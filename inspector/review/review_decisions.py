"""The steps that change a review's decisions: approve, edit or skip one finding's fix, approve or
skip every pending finding of a kind at once, and undo any number of steps.

Each step is saved at once to the review file (`reviewed_sessions` holds it). Skipping a finding
that has no fix (an info finding such as `tool-error`) is how it is acknowledged: decided, the
turn left as it is. A decision on a kind may reach sessions not read into the review (a history's
other conversations), whose decisions go to the review file by their ids.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from inspector.model import Finding
from inspector.review.edits import Edit, proposal
from inspector.review.finding_names import DecisionKey
from inspector.review.review_error import ReviewError
from inspector.review.review_file import APPROVED, EDITED, PENDING, SKIPPED, Decision, timestamp
from inspector.review.reviewed_sessions import ReviewedSessions
from inspector.scan.scanner import ScanResult


class ReviewDecisions(ReviewedSessions):
    """A review's findings and decisions (`ReviewedSessions`) with the steps that change them,
    each one undo step."""

    def approve(self, session: int, index: int) -> None:
        """Approve the finding's fix (or the edit already made of it)."""
        if not self.can_approve(session, index):
            raise ReviewError("this finding has no automatic fix: edit it (e) or skip it (s)")
        edit = self.edit_of(session, index)
        self._decide(f"approve {self._name(session, index)}", [(session, index)], EDITED if edit else APPROVED, edit)

    def skip(self, session: int, index: int) -> None:
        """Leave the turn as it is; the finding stays recorded as skipped."""
        self._decide(f"skip {self._name(session, index)}", [(session, index)], SKIPPED, None)

    def edit(self, session: int, index: int, edit: Edit) -> None:
        """Approve the fix as the person edited it; an edit equal to the proposal is a plain approval."""
        finding = self.findings(session)[index]
        if finding.fix is not None and edit == proposal(finding, self.turn_of(session, finding)):
            self._decide(f"approve {self._name(session, index)}", [(session, index)], APPROVED, None)
        else:
            self._decide(f"edit {self._name(session, index)}", [(session, index)], EDITED, edit)

    def approve_all(self, session: int, kind: str) -> int:
        """Approve every pending finding of `kind` that has a fix, as one undo step; how many."""
        return self.decide_all(kind, APPROVED, [session])[0]

    def decidable(self, session: int, kind: str, status: str) -> list[int]:
        """The indices of the session's pending findings of `kind` that can be given `status`
        (APPROVED: those with a fix; SKIPPED: all)."""
        return [
            index
            for index, finding in enumerate(self.findings(session))
            if _can_take(finding, kind, status) and self.status(session, index) == PENDING
        ]

    def decidable_elsewhere(self, result: ScanResult, kind: str, status: str) -> list[DecisionKey]:
        """The pending findings of `kind` that can be given `status` in `result`, a session not
        read into the review (a history's other conversation), as the review file names them."""
        keys = self._names.keys_elsewhere(result, len(self.results))
        return [
            key
            for key, finding in zip(keys, result.findings)
            if _can_take(finding, kind, status) and key not in self._saved.record.decisions
        ]

    def holds(self, result: ScanResult) -> bool:
        """Whether the session of `result` is read into the review."""
        return self._names.session_key(len(self.results), result) in self._names.sessions

    def decide_all(
        self, kind: str, status: str, sessions: Iterable[int], elsewhere: Sequence[DecisionKey] = ()
    ) -> tuple[int, int]:
        """Give `status` (APPROVED or SKIPPED) to every pending finding of `kind` it can take in
        `sessions` (of the review), and to the findings `elsewhere` (`decidable_elsewhere`'s), as
        one undo step; how many findings, and in how many sessions."""
        chosen = [
            self._names.key(session, index) for session in sessions for index in self.decidable(session, kind, status)
        ]
        chosen += [key for key in elsewhere if key not in self._saved.record.decisions]
        if not chosen:
            return 0, 0
        places = len({session for session, _ in chosen})
        where = f" in {places} {'conversations' if self.source.streams else 'sessions'}" if places > 1 else ""
        verb = "approve" if status == APPROVED else "skip"
        self._decide_keys(f"{verb} all {len(chosen)} pending {kind}{where}", chosen, status, None)
        return len(chosen), places

    def undo_target(self) -> tuple[int, int] | None:
        """The (session, index) of the first finding read into the review that the next `undo`
        gives its decision back to, so it can be shown; None when there is nothing to undo, or
        the step changed only sessions not read into the review."""
        places = (self._names.place(key) for key, _ in self._undo[-1][1]) if self._undo else ()
        return next((place for place in places if place is not None), None)

    def undo(self) -> str | None:
        """Undo the last step; a one-line description of it, or None when there is nothing to undo."""
        if not self._undo:
            return None
        label, changes = self._undo.pop()
        record = self._saved.record
        for key, previous in changes:
            self._saved.changed.decisions.add(key)
            if previous is None:
                record.decisions.pop(key, None)
            else:
                record.decisions[key] = previous
        record.unexported = True
        self._saved.save()
        return f"undid {label}"

    def _decide(self, label: str, targets: list[tuple[int, int]], status: str, edit: Edit | None) -> None:
        self._decide_keys(label, [self._names.key(session, index) for session, index in targets], status, edit)

    def _decide_keys(self, label: str, keys: list[DecisionKey], status: str, edit: Edit | None) -> None:
        """Give `status` (and `edit`) to the findings `keys` name, as one undo step, and save."""
        stamp, record = timestamp(), self._saved.record
        changes = []
        for key in keys:
            self._saved.changed.decisions.add(key)
            changes.append((key, record.decisions.get(key)))
            record.decisions[key] = Decision(status, edit, stamp)
        self._undo.append((label, changes))
        record.unexported = True
        self._saved.save()

    def _name(self, session: int, index: int) -> str:
        finding = self.findings(session)[index]
        return f"{finding.kind} at turn {finding.turn}"


def _can_take(finding: Finding, kind: str, status: str) -> bool:
    """Whether `finding` is of `kind` and can be given `status`: approving needs a fix."""
    return finding.kind == kind and (status != APPROVED or finding.fix is not None)
