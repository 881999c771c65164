"""Exporting a review: every session of the file written again with only the approved (and
edited) fixes applied, through the same code as `inspector fix` (`repair.apply_fixes`,
`export.export`), with the audit record beside it and the export noted in the review file.

Mixed into `inspector.review.review.Review`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from inspector.repair.execute import ExecutionResult, results_by_call
from inspector.repair.write import backup, export
from inspector.model import Finding, Fix
from inspector.repair.apply import apply_fixes
from inspector.review.decisions import ReviewError
from inspector.review.review_file import EDITED, timestamp

if TYPE_CHECKING:
    from inspector.review.review import Review


@dataclass(frozen=True)
class ExportOutcome:
    """What an export wrote: the repaired file, its audit record, the input's backup when the
    input itself was replaced, and how many fixes were applied."""

    out: Path
    audit: Path
    backup: Path | None
    applied: int


class ReviewExport:
    """Mixed into `Review`: where an export goes by default, and the export itself."""

    def default_export_path(self: Review) -> Path:
        """`NAME.fixed.EXT` beside the input (`NAME.fixed.N.EXT` if that exists already)."""
        stem, suffix = self.path.name.split(".", 1) if "." in self.path.name else (self.path.name, "")
        dot = f".{suffix}" if suffix else ""
        candidate, number = self.path.with_name(f"{stem}.fixed{dot}"), 1
        while candidate.exists():
            candidate, number = self.path.with_name(f"{stem}.fixed.{number}{dot}"), number + 1
        return candidate

    def export(self: Review, out: Path | None = None, overwrite_input: bool = False) -> ExportOutcome:
        """Write every session of the file with only the approved (and edited) fixes applied, in the
        input's format, and the audit record beside it. The input is replaced only when
        `overwrite_input`, and then only after a backup."""
        target = self.path if overwrite_input else Path(out) if out is not None else self.default_export_path()
        if not overwrite_input and target.resolve() == self.path.resolve():
            raise ReviewError(f"{target}: is the input; choose 'overwrite the input' to replace it (a backup is kept)")
        repaired, applied, ran = [], [], []
        for session, result in enumerate(self.results):
            chosen, proposals, executions = self._approved(session)
            ran.extend(executions)
            fixed, fixes = apply_fixes(result.session, chosen, executed=results_by_call(executions))
            repaired.append(fixed)
            applied.extend((result.session, replace(fix, proposed=proposals.get(id(fix.finding)))) for fix in fixes)
        saved = backup(self.path) if overwrite_input else None
        audit = export(repaired, applied, target, executions=ran)
        stamp = timestamp()
        self._record.exports = (self._record.exports or []) + [{"at": stamp, "out": str(target), "applied": len(applied)}]
        self._record.unexported = False
        self._save()
        return ExportOutcome(target, audit, saved, len(applied))

    def _approved(self: Review, session: int) -> tuple[list[Finding], dict[int, Fix], list[ExecutionResult]]:
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
