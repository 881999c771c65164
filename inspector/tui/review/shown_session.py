"""What the review screen shows of one session, without a widget: the session, its review once the
scan is done (its first findings until then), the findings grouped by turn, which finding of the
selected turn is shown, and whether the detail shows the whole turn as exported instead.
`inspector.tui.review.drawing` draws it; every decision goes through the review
(`inspector.review.review.Review`).
"""

from __future__ import annotations

from dataclasses import dataclass

from inspector.model import SEVERITIES, Finding, Session, Turn
from inspector.review.review import Review
from inspector.review.review_file import APPROVED, EDITED, PENDING, SKIPPED
from inspector.tui.review.call_links import CallLinks
from inspector.tui.review.detail_content import FindingView, TurnView
from inspector.tui.review.turn_list import MIXED, TurnMark
from inspector.view.repaired_turn import fix_preview, repaired_turn


@dataclass(frozen=True)
class Reviewed:
    """The session shown once its review is ready: what every decision on it needs."""

    review: Review
    session: Session
    index: int  # the session's, among the review's sessions


class ShownSession:
    """The session shown, its findings by turn and the finding shown of the selected turn."""

    def __init__(self, session_index: int | None, start: int | None = None) -> None:
        """`session_index`: the index of the session to show among the file's (None: the first
        flagged, chosen once the review is ready); `start`: the position of the turn to open on
        (None: the first finding still pending)."""
        self.session_index = session_index
        self.start = start
        self.place: tuple[int, int] | None = None  # a database conversation's number, and how many there are
        self.session: Session | None = None
        self.review: Review | None = None
        self.early: list[Finding] = []  # the first findings, until the review is ready
        self.by_turn: dict[int, list[int]] = {}  # turn position -> indices of its findings
        self.flagged: list[int] = []  # flagged positions, sorted
        self.finding_number = 0  # of the finding shown, among its turn's (modulo their count)
        self._wanted: tuple[int, int] | None = None  # (position, finding number) to show next
        self.whole_turn = False  # the detail shows the whole turn as exported, not one finding
        self._links: tuple[Session, CallLinks] | None = None  # the session's, once found

    def release(self) -> None:
        """Let go of the session and its review (the screen closes; what still holds the screen,
        such as the thread that loaded it, then holds nothing big)."""
        self.session, self.review, self.early = None, None, []
        self.by_turn, self.flagged = {}, []
        self._links = None

    def reviewed(self) -> Reviewed | None:
        """The session with its review, once the review is ready (None before, and once released)."""
        if self.review is None or self.session is None or self.session_index is None:
            return None
        return Reviewed(self.review, self.session, self.session_index)

    def turn_at(self, position: int | None) -> Turn | None:
        """The session's turn at `position` (None: no session, or no turn selected)."""
        return self.session.turn_at(position) if self.session is not None and position is not None else None

    def findings(self) -> list[Finding]:
        """The session's findings: the review's, or the first ones while the scan runs."""
        reviewed = self.reviewed()
        return reviewed.review.findings(reviewed.index) if reviewed is not None else self.early

    def status(self, index: int) -> str:
        """The decision on the finding at `index` (pending until the review is ready)."""
        reviewed = self.reviewed()
        return reviewed.review.status(reviewed.index, index) if reviewed is not None else PENDING

    def group(self, findings: list[Finding]) -> None:
        """Group `findings` (the session's, in order) by the turn they are about."""
        self.by_turn = {}
        for index, finding in enumerate(findings):
            self.by_turn.setdefault(finding.turn, []).append(index)
        self.flagged = sorted(self.by_turn)

    def marks(self, positions: list[int]) -> dict[int, TurnMark]:
        """The mark of each flagged turn: its kinds, worst severity and combined status."""
        findings, marks = self.findings(), {}
        for position in positions:
            indices = self.by_turn[position]
            status = combined_status({self.status(i) for i in indices})
            kinds = ",".join(dict.fromkeys(findings[i].kind for i in indices))
            severity = min((findings[i].severity for i in indices), key=SEVERITIES.index)
            marks[position] = TurnMark(kinds, severity, status)
        return marks

    def links(self) -> CallLinks | None:
        """Which turn answers each call of the session shown, and the reverse; None until they
        are found (`keep_links`)."""
        return self._links[1] if self._links is not None and self._links[0] is self.session else None

    def keep_links(self, session: Session, links: CallLinks) -> None:
        """Keep the links found for `session`, if it is still the session shown."""
        if session is self.session:
            self._links = (session, links)

    def current(self, position: int | None) -> int | None:
        """The index of the finding shown when the turn at `position` is selected, if it is flagged."""
        indices = self.by_turn.get(position, []) if position is not None else []
        return indices[self.finding_number % len(indices)] if indices else None

    def detail(self, position: int | None) -> tuple[Turn | None, FindingView | TurnView | None]:
        """The turn at `position` and the view of its finding shown, or of the whole turn as
        exported (None when it has no finding)."""
        turn = self.turn_at(position)
        index = self.current(position)
        if index is None or turn is None:
            return turn, None
        indices, finding = self.by_turn[turn.position], self.findings()[index]
        reviewed = self.reviewed()
        if self.whole_turn:
            findings = [self.findings()[i] for i in indices]
            approved = (
                [found for found in (reviewed.review.approved_finding(reviewed.index, i) for i in indices) if found]
                if reviewed is not None
                else []
            )
            return turn, TurnView(
                repaired_turn(turn, findings, approved),
                tuple((f, self.status(i)) for f, i in zip(findings, indices)),
                self.finding_number % len(indices) + 1,
            )
        fix = reviewed.review.decided_fix(reviewed.index, index) if reviewed is not None else finding.fix
        return turn, FindingView(
            finding,
            fix_preview(finding, turn, fix),
            self.status(index),
            self.finding_number % len(indices) + 1,
            len(indices),
            reviewed.review.executions(reviewed.index, index) if reviewed is not None else (),
        )

    def place_of(self, index: int) -> tuple[int, int]:
        """The turn position of the finding at `index`, and its number among that turn's findings."""
        turn = self.findings()[index].turn
        return turn, self.by_turn[turn].index(index)

    def resume_point(self) -> tuple[int, int]:
        """Where a review starts: the first flagged turn with a finding still pending, and that
        finding's number in the turn (the first flagged turn when every finding is decided)."""
        for position in self.flagged:
            for number, index in enumerate(self.by_turn[position]):
                if self.status(index) == PENDING:
                    return position, number
        return self.flagged[0], 0

    def want(self, position: int, number: int) -> None:
        """Show the finding `number` of the turn at `position` once that turn is selected."""
        self._wanted = (position, number)

    def selected(self, position: int | None) -> None:
        """The turn at `position` is selected: show the finding wanted there, else its first."""
        wanted, self._wanted = self._wanted, None
        self.finding_number = wanted[1] if wanted and wanted[0] == position else 0

    def step_finding(self, position: int | None, step: int) -> bool:
        """Show the next (`step` 1) or previous (-1) finding of the turn at `position`; False when
        it has only one."""
        indices = self.by_turn.get(position, []) if position is not None else []
        if len(indices) > 1:
            self.finding_number = (self.finding_number + step) % len(indices)
        return len(indices) > 1


def combined_status(statuses: set[str]) -> str:
    """One status for a turn whose findings have `statuses`: pending while any is; mixed when some
    fixes are approved (or edited) and others skipped; else edited, approved or skipped."""
    if PENDING in statuses:
        return PENDING
    if SKIPPED in statuses and statuses != {SKIPPED}:
        return MIXED
    return next((status for status in (EDITED, APPROVED) if status in statuses), SKIPPED)
