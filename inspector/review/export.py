"""Exporting a review: every session of the source written again with only the approved (and
edited) fixes applied, through the same write path as `inspector fix`
(`inspector.repair.write.write_repaired`), with the audit beside it and the export noted in the
review file. `to="openai"` writes them as OpenAI Chat Completions JSON instead (never over the input).
A history written in place (a server's database is written no other way) is first checked to
hold the conversations still as the review read them (`as_read`).
"""

from __future__ import annotations

from pathlib import Path

from inspector.model import Finding, Fix
from inspector.repair.execute import ExecutionResult
from inspector.repair.write import Chosen, WriteOutcome, write_repaired
from inspector.review.as_read import check_as_read
from inspector.review.decisions import DecisionSteps
from inspector.review.review_file import EDITED, database_file_name, timestamp
from inspector.review.state import ReviewError
from inspector.sources.base import Source
from inspector.sources.discovery import kept_by_a_tool
from inspector.sources.location import ServerUrl


class ReviewExport(DecisionSteps):
    """Where an export goes by default, and the export itself."""

    def default_export_path(self, to: str | None = None) -> Path:
        """`NAME.fixed.EXT` (`NAME.fixed.N.EXT` if that exists already) beside the input, or in the
        current folder when the input is a bundled sample or kept in a tool's own session folder
        (where the tool would list the export as one of its sessions), or a server's database
        (named after the database). Into the format `to`:
        `NAME.fixed.TO.json` (`.jsonl` for several sessions)."""
        on_server = isinstance(self.path, ServerUrl)  # its database's name, in the current folder
        folder = Path.cwd() if on_server or kept_by_a_tool(self.path) else self.path.parent
        name = database_file_name(self.path) if on_server else self.path.name
        stem, suffix = name.split(".", 1) if "." in name else (name, "")
        if to is not None:
            suffix = f"{to}.json" + ("l" if len(self.results) > 1 else "")
        dot = f".{suffix}" if suffix else ""
        candidate, number = folder / f"{stem}.fixed{dot}", 1
        while candidate.exists():
            candidate, number = folder / f"{stem}.fixed.{number}{dot}", number + 1
        return candidate

    def export(
        self,
        out: Path | None = None,
        overwrite_input: bool = False,
        replace_existing: bool = False,
        to: str | None = None,
    ) -> WriteOutcome:
        """Write every session of the file with only the approved (and edited) fixes applied, in the
        input's format (or the format `to`, as a new file), and the audit record beside it. The
        input is replaced only when `overwrite_input`, and then only after a backup (a server's
        database: its audit tables keep every change's before-value); another
        existing file only when `replace_existing` (the person chose to replace it), and only a
        regular file."""
        if to is not None and overwrite_input:
            raise ReviewError(f"an export as {to} is a new file: it never overwrites the input")
        target = self.path if overwrite_input else Path(out) if out is not None else self.default_export_path(to)
        if not overwrite_input and isinstance(self.path, Path) and target.resolve() == self.path.resolve():
            raise ReviewError(f"{target}: is the input; choose 'overwrite the input' to replace it (a backup is kept)")
        if not (overwrite_input or replace_existing) and target.exists():
            raise ReviewError(
                f"{target}: exists already; nothing was written (choose another file, or agree to replace it)"
            )
        self._save()  # takes in what another inspector decided on this review meanwhile
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
        stamp = timestamp()
        self._record.exports = (self._record.exports or []) + [
            {"at": stamp, "out": str(target), "applied": outcome.applied}
        ]
        self._record.unexported = False
        self._save()
        return outcome

    def _still_as_read(self, reading: Source, chosen: list[Chosen], in_place: bool) -> list[Chosen]:
        """`chosen`, once a history written in place is found to hold its conversations still as
        the review read them (else one line refuses the write, `as_read`)."""
        if in_place and self.source.streams:
            check_as_read(reading, (choice.session for choice in chosen))
        return chosen

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
