"""A person's review of the sessions of one source: `Review`, what the app and the command line
open. It holds every finding read and the decision on each (`reviewed_sessions`), changes them a
step at a time (`review_decisions`: approve, edit or skip a fix, a kind at once, undo), counts
what they add up to, and exports the repaired sessions with only the approved fixes applied.

Every decision is saved at once to the review file in the state folder, and opening a review
resumes the decisions saved there. The app drives this; it holds no decision logic of its own.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import replace
from pathlib import Path

from inspector.model import Finding, Fix, Location, ToolSpec
from inspector.repair.execute import ExecutionResult
from inspector.repair.write import Chosen, WriteOutcome, write_repaired
from inspector.review.as_read import check_as_read
from inspector.review.baseline import Acknowledged, acknowledged_of, write_baseline
from inspector.review.counts import Counts, ExportPlan
from inspector.review.export_path import default_export_path
from inspector.review.review_decisions import ReviewDecisions
from inspector.review.review_error import ReviewError
from inspector.review.review_file import APPROVED, EDITED, PENDING, SKIPPED, SessionKey, timestamp
from inspector.scan.scanner import ScanResult
from inspector.sources.base import Source
from inspector.support.safe_text import shown_name


class Review(ReviewDecisions):
    """Every finding of the sessions of one source read so far, the person's decisions on them
    (saved in the review file), the steps that change them, and the export they lead to."""

    @classmethod
    def open(
        cls,
        source: Source,
        results: list[ScanResult],
        extra_tools: Iterable[ToolSpec] = (),
        conversations: Sequence[str] | None = None,
    ) -> Review:
        """The review of the sessions of `source`, resuming the decisions saved beside it (see `__init__`)."""
        return cls(source, results, extra_tools, conversations)

    # what the decisions add up to

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

    def export_plan(self) -> ExportPlan:
        """What an export would apply and leave, counted before it runs."""
        counts = [self.counts(session) for session in range(len(self.results))]
        elsewhere = self._saved.approved_elsewhere(self._names.sessions)
        return ExportPlan(
            len(counts),
            sum(c.approved + c.edited for c in counts),
            sum(c.edited for c in counts),
            sum(c.pending for c in counts),
            sum(c.skipped for c in counts),
            len(elsewhere),
            len(set(elsewhere)),
        )

    def decided_elsewhere(self) -> list[SessionKey]:
        """The sessions not read into this review that have approved or edited fixes saved in the
        review file: an export must `include` them to apply those too (conversation ids first)."""
        elsewhere = set(self._saved.approved_elsewhere(self._names.sessions))
        return sorted(elsewhere, key=lambda session: (isinstance(session, int), str(session)))

    def decided_missing(self, conversations: Collection[str]) -> dict[SessionKey, int]:
        """The sessions with decisions in the review file that are neither read into this review
        nor among `conversations` (a database's ids now), with how many decisions each: decisions
        kept in the file that can no longer be applied."""
        return self._saved.missing(set(conversations) | set(self._names.sessions))

    def unmatched(self) -> int:
        """How many decisions the review file holds for the sessions read that match none of their
        findings now (a session changed since): kept in the file, never applied."""
        return self._saved.unmatched(
            {session: set(keys) for session, keys in zip(self._names.sessions, self._names.keys)}
        )

    # exporting

    def default_export_path(self, to: str | None = None) -> Path:
        """Where an export goes by default (`export_path`); into the format `to`, if given."""
        return default_export_path(self.path, len(self.results) > 1, to)

    def export(
        self,
        out: Path | None = None,
        overwrite_input: bool = False,
        replace_existing: bool = False,
        to: str | None = None,
    ) -> WriteOutcome:
        """Write every session of the source with only the approved (and edited) fixes applied,
        through the same write path as `inspector fix` (`inspector.repair.write.write_repaired`),
        in the input's format (or the format `to`, as a new file), with the audit record beside it,
        the skipped findings named in a baseline beside it too (`baseline`: `inspector scan`
        leaves them out), and the export noted in the review file. The input is replaced only when
        `overwrite_input`, and then only after a backup (a server's database: its audit tables
        keep every change's before-value); another existing file only when `replace_existing`
        (the person chose to replace it), and only a regular file. A history written in place is
        first checked to hold the conversations still as the review read them (`as_read`)."""
        if to is not None and overwrite_input:
            raise ReviewError(f"an export as {to} is a new file: it never overwrites the input")
        target: Location = self.path if overwrite_input else self._export_copy(out, to, replace_existing)
        self._saved.save()  # takes in what another inspector decided on this review meanwhile
        chosen: list[Chosen] = []
        ran: list[ExecutionResult] = []
        for session, result in enumerate(self.results):
            findings, proposals, executions = self._approved(session)
            ran.extend(executions)
            chosen.append(Chosen(result.session, findings, proposals))
        outcome = write_repaired(
            self.source,
            target,
            lambda reading: self._still_as_read(reading, chosen, overwrite_input),
            overwrite_input,
            ran,
            replace_existing,
            to=to,
        )
        record = self._saved.record
        record.exports = (record.exports or []) + [{"at": timestamp(), "out": str(target), "applied": outcome.applied}]
        record.unexported = False
        self._saved.save()
        if isinstance(target, Path):  # a server's database has no folder to keep one in
            outcome = replace(outcome, baseline=write_baseline(target, self.path, self._skipped()))
        return outcome

    def _still_as_read(self, reading: Source, chosen: list[Chosen], in_place: bool) -> list[Chosen]:
        """`chosen`, once a history written in place is found to hold its conversations still as
        the review read them (else one line refuses the write, `as_read`)."""
        if in_place and self.source.streams:
            check_as_read(reading, (choice.session for choice in chosen))
        return chosen

    def _export_copy(self, out: Path | str | None, to: str | None, replace_existing: bool) -> Path:
        """The new file an export writes (`out`, else the default beside the input), refused in
        one line when it is the input, or exists and the person did not agree to replace it."""
        copy = Path(out) if out is not None else self.default_export_path(to)
        if isinstance(self.path, Path) and copy.resolve() == self.path.resolve():
            raise ReviewError(
                f"{shown_name(copy)}: is the input; choose 'overwrite the input' to replace it (a backup is kept)"
            )
        if not replace_existing and copy.exists():
            raise ReviewError(
                f"{shown_name(copy)}: exists already; nothing was written (choose another file, or agree to replace it)"
            )
        return copy

    def _skipped(self) -> list[Acknowledged]:
        """The findings a person skipped (acknowledged), named for the baseline of an export."""
        skipped = []
        for session in range(len(self.results)):
            findings = self.findings(session)
            indices = [index for index in range(len(findings)) if self.status(session, index) == SKIPPED]
            keys = [self._names.key(session, index)[1] for index in indices]
            named = self._names.sessions[session]
            skipped.extend(acknowledged_of(named, self.results[session].session, keys, [findings[i] for i in indices]))
        return skipped

    def _approved(self, session: int) -> tuple[list[Finding], dict[int, Fix], list[ExecutionResult]]:
        """The session's approved findings carrying the fix to apply, for each edited one the fix
        that was proposed (by the id of the finding passed on), and their calls' executions."""
        chosen: list[Finding] = []
        proposals: dict[int, Fix] = {}
        executions: list[ExecutionResult] = []
        for index, finding in enumerate(self.findings(session)):
            approved = self.approved_finding(session, index)
            if approved is not None:
                chosen.append(approved)
                executions.extend(self.executions(session, index))
                if self.status(session, index) == EDITED and finding.fix is not None:
                    proposals[id(approved)] = finding.fix
        return chosen, proposals, executions
