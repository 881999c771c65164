"""Deciding on a review's findings: approve, edit or skip each finding's fix, approve or skip
every pending finding of a kind at once (in one session, or in several, also sessions not read
into the review: a history's other conversations, whose decisions go to the review file by their
ids), and undo any number of those steps, a step on many findings as one.

Skipping a finding that has no fix (an info finding such as `tool-error`) is how it is
acknowledged: decided, the turn left as it is.

Built on `inspector.review.state.ReviewState`, which holds the decisions (its review file's record)
and saves them the moment they change; this module only says how a decision changes them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from inspector.model import Finding, Fix
from inspector.review.anchors import SavedKey, anchored_keys
from inspector.review.edits import Edit, edited_fix, proposal
from inspector.review.review_file import (
    APPROVED,
    EDITED,
    PENDING,
    SKIPPED,
    Decision,
    SessionKey,
    finding_keys,
    timestamp,
)
from inspector.review.state import ReviewError, ReviewState
from inspector.scan.scanner import ScanResult

# A finding as the review file names it: its session's key and its own.
DecisionKey = tuple[SessionKey, SavedKey]
# One undo step: each finding it changed and the decision it had before (None: pending).
Step = tuple[str, list[tuple[DecisionKey, Decision | None]]]


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
        return self.decidable(session, kind, APPROVED)

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
        session = self._session_key(len(self.results), result)
        keys = anchored_keys(result.session, result.findings, finding_keys(result.findings))
        return [
            (session, keys[index])
            for index, finding in enumerate(result.findings)
            if _can_take(finding, kind, status) and (session, keys[index]) not in self._record.decisions
        ]

    def holds(self, result: ScanResult) -> bool:
        """Whether the session of `result` is read into the review."""
        return self._session_key(len(self.results), result) in self._sessions

    def decide_all(
        self, kind: str, status: str, sessions: Iterable[int], elsewhere: Sequence[DecisionKey] = ()
    ) -> tuple[int, int]:
        """Give `status` (APPROVED or SKIPPED) to every pending finding of `kind` it can take in
        `sessions` (of the review), and to the findings `elsewhere` (`decidable_elsewhere`'s), as
        one undo step; how many findings, and in how many sessions."""
        chosen = [self._key(session, index) for session in sessions for index in self.decidable(session, kind, status)]
        chosen += [key for key in elsewhere if key not in self._record.decisions]
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
        for (session_key, finding_key), _ in self._undo[-1][1] if self._undo else ():
            if session_key in self._sessions:
                session = self._sessions.index(session_key)
                return session, self._keys[session].index(finding_key)
        return None

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
        return Counts(
            len(statuses),
            statuses.count(APPROVED),
            statuses.count(EDITED),
            statuses.count(SKIPPED),
            statuses.count(PENDING),
        )

    def _decide(self, label: str, targets: list[tuple[int, int]], status: str, edit: Edit | None) -> None:
        self._decide_keys(label, [self._key(session, index) for session, index in targets], status, edit)

    def _decide_keys(self, label: str, keys: list[DecisionKey], status: str, edit: Edit | None) -> None:
        """Give `status` (and `edit`) to the findings `keys` name, as one undo step, and save."""
        stamp = timestamp()
        changes = []
        for key in keys:
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


def _can_take(finding: Finding, kind: str, status: str) -> bool:
    """Whether `finding` is of `kind` and can be given `status`: approving needs a fix."""
    return finding.kind == kind and (status != APPROVED or finding.fix is not None)
