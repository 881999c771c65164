"""Deciding on a review's findings: approve, edit or skip each finding's fix, approve every
pending finding of a kind at once, and undo any number of those steps.

Built on `inspector.review.state.ReviewState`, which holds the decisions (its review file's record)
and saves them the moment they change; this module only says how a decision changes them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from inspector.model import Finding, Fix
from inspector.review.edits import Edit, edited_fix, proposal
from inspector.review.anchors import SavedKey
from inspector.review.review_file import APPROVED, EDITED, PENDING, SKIPPED, Decision, SessionKey, timestamp
from inspector.review.state import ReviewError, ReviewState

# One undo step: each finding it changed and the decision it had before (None: pending).
Step = tuple[str, list[tuple[tuple[SessionKey, SavedKey], Decision | None]]]


@dataclass(frozen=True)
class Counts:
    """How many findings a session has, and how many of them are in each state."""

    flagged: int
    approved: int
    edited: int
    skipped: int
    pending: int


class DecisionSteps(ReviewState):
    """Each finding's decision, the steps that change it, and their undoing."""

    _undo: list[Step]  # the steps taken, the last one last

    def status(self, session: int, index: int) -> str:
        """pending, approved, edited or skipped."""
        decision = self._decision(session, index)
        return decision.status if decision else PENDING

    def edit_of(self, session: int, index: int) -> Edit | None:
        """The person's edit of the finding's fix, if they made one."""
        decision = self._decision(session, index)
        return decision.edit if decision else None

    def decided_fix(self, session: int, index: int) -> Fix | None:
        """The fix export would apply if the finding is approved: the edited one, else the proposal."""
        finding = self.findings(session)[index]
        edit = self.edit_of(session, index)
        if edit is None:
            return finding.fix
        return edited_fix(finding, self._turn(session, finding), edit)

    def can_approve(self, session: int, index: int) -> bool:
        """Whether there is a fix to approve: the finding's own, or the person's edit."""
        return self.decided_fix(session, index) is not None

    def approved_finding(self, session: int, index: int) -> Finding | None:
        """The finding carrying the fix export applies (the edited one, else the proposal), or None
        when it is not approved (nor edited)."""
        if self.status(session, index) not in (APPROVED, EDITED):
            return None
        return replace(self.findings(session)[index], fix=self.decided_fix(session, index))

    def approve(self, session: int, index: int) -> None:
        """Approve the finding's fix (or the edit already made of it)."""
        if not self.can_approve(session, index):
            raise ReviewError("this finding has no automatic fix: edit it (e) or skip it (s)")
        status = EDITED if self.edit_of(session, index) else APPROVED
        self._decide(f"approve {self._name(session, index)}", [(session, index)], status, self.edit_of(session, index))

    def skip(self, session: int, index: int) -> None:
        """Leave the turn as it is; the finding stays recorded as skipped."""
        self._decide(f"skip {self._name(session, index)}", [(session, index)], SKIPPED, None)

    def edit(self, session: int, index: int, edit: Edit) -> None:
        """Approve the fix as the person edited it; an edit equal to the proposal is a plain approval."""
        finding = self.findings(session)[index]
        if finding.fix is not None and edit == proposal(finding, self._turn(session, finding)):
            self._decide(f"approve {self._name(session, index)}", [(session, index)], APPROVED, None)
        else:
            self._decide(f"edit {self._name(session, index)}", [(session, index)], EDITED, edit)

    def approvable(self, session: int, kind: str) -> list[int]:
        """The indices of the session's pending findings of `kind` that have a fix: what
        `approve_all` approves."""
        return [index for index, finding in enumerate(self.findings(session))
                if finding.kind == kind and finding.fix is not None and self.status(session, index) == PENDING]

    def approve_all(self, session: int, kind: str) -> int:
        """Approve every pending finding of `kind` that has a fix, as one undo step; how many."""
        chosen = [(session, index) for index in self.approvable(session, kind)]
        if chosen:
            self._decide(f"approve all {len(chosen)} pending {kind}", chosen, APPROVED, None)
        return len(chosen)

    def undo_target(self) -> tuple[int, int] | None:
        """The (session, index) of the first finding the next `undo` gives its decision back to, so
        it can be shown; None when there is nothing to undo."""
        if not self._undo:
            return None
        (session_key, finding_key), _ = self._undo[-1][1][0]
        session = self._sessions.index(session_key)
        return session, self._keys[session].index(finding_key)

    def undo(self) -> str | None:
        """Undo the last step; a one-line description of it, or None when there is nothing to undo."""
        if not self._undo:
            return None
        label, changes = self._undo.pop()
        for key, previous in changes:
            self._changed.decisions.add(key)
            if previous is None:
                self._record.decisions.pop(key, None)
            else:
                self._record.decisions[key] = previous
        self._record.unexported = True
        self._save()
        return f"undid {label}"

    def counts(self, session: int) -> Counts:
        """The session's findings by state."""
        statuses = [self.status(session, index) for index in range(len(self.findings(session)))]
        return Counts(len(statuses), statuses.count(APPROVED), statuses.count(EDITED), statuses.count(SKIPPED),
                      statuses.count(PENDING))

    def _decide(self, label: str, targets: list[tuple[int, int]], status: str, edit: Edit | None) -> None:
        stamp = timestamp()
        changes = []
        for session, index in targets:
            key = self._key(session, index)
            self._changed.decisions.add(key)
            changes.append((key, self._record.decisions.get(key)))
            self._record.decisions[key] = Decision(status, edit, stamp)
        self._undo.append((label, changes))
        self._record.unexported = True
        self._save()

    def _name(self, session: int, index: int) -> str:
        finding = self.findings(session)[index]
        return f"{finding.kind} at turn {finding.turn}"

    def _decision(self, session: int, index: int) -> Decision | None:
        return self._record.decisions.get(self._key(session, index))
