"""A person's review of the sessions of one source: approve, edit or skip each finding's fix,
undo any number of steps, and export the repaired sessions with only the approved fixes applied.

Every decision is saved at once to the review file in the state folder (`review_file`), merged
with what another inspector saved there meanwhile (`merge`), and opening a review resumes the
decisions saved there, each on the finding it is about however the session was written again
(`anchors`). The review is built in layers, each in its
own module: what it holds (`state`), deciding (`decisions`), exporting (`export`), and here,
opening it and what the saved decisions say about sessions not read into it. The TUI drives this;
it holds no decision logic of its own.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from inspector.model import ToolSpec
from inspector.review.export import ReviewExport
from inspector.review.review_file import APPROVED, EDITED, SessionKey
from inspector.scan.scanner import ScanResult
from inspector.sources.base import Source

__all__ = ["ExportPlan", "Review"]


@dataclass(frozen=True)
class ExportPlan:
    """What an export would do: the approved fixes it applies to the `sessions` read into the
    review (`edited` of them as the person edited them), the findings it leaves as they are
    (pending, skipped), and the approved fixes it applies to sessions not read (a history's other
    conversations: `elsewhere` fixes on `elsewhere_sessions` of them)."""

    sessions: int
    approved: int
    edited: int
    pending: int
    skipped: int
    elsewhere: int = 0
    elsewhere_sessions: int = 0


class Review(ReviewExport):
    """A person's review of the sessions of one source: every step of `ReviewState`,
    `DecisionSteps` and `ReviewExport`, opened with the decisions saved in the review file, and
    what those saved decisions say about sessions not read into it."""

    @classmethod
    def open(
        cls,
        source: Source,
        results: list[ScanResult],
        extra_tools: Iterable[ToolSpec] = (),
        conversations: Sequence[str] | None = None,
    ) -> Review:
        """The review of the sessions of `source`, resuming the decisions saved beside it.
        `conversations`: of a database, every conversation's id in the database's order, which
        reads a review file of an earlier version (that named conversations by their places)."""
        return cls(source, results, extra_tools, conversations)

    def decided_elsewhere(self) -> list[SessionKey]:
        """The sessions not read into this review that have approved or edited fixes saved in the
        review file: an export must `include` them to apply those too (conversation ids first)."""
        return sorted(
            {
                session
                for (session, _), decision in self._record.decisions.items()
                if decision.status in (APPROVED, EDITED) and session not in self._sessions
            },
            key=lambda session: (isinstance(session, int), str(session)),
        )

    def export_plan(self) -> ExportPlan:
        """What an export would apply and leave, counted before it runs."""
        counts = [self.counts(session) for session in range(len(self.results))]
        elsewhere = [
            session
            for (session, _), decision in self._record.decisions.items()
            if decision.status in (APPROVED, EDITED) and session not in self._sessions
        ]
        return ExportPlan(
            len(counts),
            sum(c.approved + c.edited for c in counts),
            sum(c.edited for c in counts),
            sum(c.pending for c in counts),
            sum(c.skipped for c in counts),
            len(elsewhere),
            len(set(elsewhere)),
        )

    def decided_missing(self, conversations: Collection[str]) -> dict[SessionKey, int]:
        """The sessions with decisions in the review file that are neither read into this review
        nor among `conversations` (a database's ids now), with how many decisions each: decisions
        kept in the file that can no longer be applied."""
        missing: dict[SessionKey, int] = {}
        present = set(conversations) | set(self._sessions)
        for session, _ in self._record.decisions:
            if session not in present:
                missing[session] = missing.get(session, 0) + 1
        return missing

    def unmatched(self) -> int:
        """How many decisions the review file holds for the sessions read that match none of their
        findings now (a session changed since): kept in the file, never applied."""
        findings = {session: set(keys) for session, keys in zip(self._sessions, self._keys)}
        return sum(
            1 for session, finding in self._record.decisions if session in findings and finding not in findings[session]
        )
