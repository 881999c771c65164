"""A person's review of one session file: approve, edit or skip each finding's fix, undo any
number of steps, and export the repaired file with only the approved fixes applied.

Every decision is saved at once to the review file beside the session (`review_file`), and the
export goes through the same code as `inspector fix` (`repair.apply_fixes`, `export.export`).
The TUI drives this; it holds no decision logic of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Collection, Iterable, Sequence

from inspector.catalogue import Catalogue, build_catalogue
from inspector.edits import Edit, edited_fix, proposal
from inspector.errors import InspectorError
from inspector.execute import ExecutionResult, results_by_call
from inspector.export import backup, export
from inspector.formats.sqlite_db import SqliteSource
from inspector.model import Finding, Fix, ToolSpec
from inspector.repair import apply_fixes
from inspector.review_file import (APPROVED, EDITED, PENDING, SKIPPED, Decision, SessionKey, finding_keys,
                                   read_review, review_path_for, write_review)
from inspector.scan import ScanResult

__all__ = ["APPROVED", "EDITED", "PENDING", "SKIPPED", "Counts", "ExportOutcome", "Review", "ReviewError"]


class ReviewError(InspectorError):
    """A review action that cannot be done, worded to be shown as it is."""


@dataclass(frozen=True)
class Counts:
    """How many findings a session has, and how many of them are in each state."""

    flagged: int
    approved: int
    edited: int
    skipped: int
    pending: int


@dataclass(frozen=True)
class ExportOutcome:
    """What an export wrote: the repaired file, its audit record, the input's backup when the
    input itself was replaced, and how many fixes were applied."""

    out: Path
    audit: Path
    backup: Path | None
    applied: int


# One undo step: each finding it changed and the decision it had before (None: pending).
_Step = tuple[str, list[tuple[tuple[SessionKey, str], Decision | None]]]


class Review:
    """Every finding of the sessions of one file read so far, and the person's decision on each.

    A session file's sessions are named in the review file by their places in it (the results
    are all of them, in order); a database's conversations by their ids, so a review of some of
    them shares the review file with reviews of the others, and `include` adds one read later."""

    def __init__(self, path: Path, results: list[ScanResult], extra_tools: Iterable[ToolSpec] = (),
                 conversations: Sequence[str] | None = None) -> None:
        self.path = Path(path)
        self.review_path = review_path_for(self.path)
        self.results = results
        self._sessions = [_session_key(place, result) for place, result in enumerate(results)]
        self._extra_tools = tuple(extra_tools)
        self._keys = [finding_keys(result.findings) for result in results]
        self._record = read_review(self.review_path, conversations)
        self._catalogues: dict[int, Catalogue] = {}
        self._undo: list[_Step] = []

    @classmethod
    def open(cls, path: Path, results: list[ScanResult], extra_tools: Iterable[ToolSpec] = (),
             conversations: Sequence[str] | None = None) -> Review:
        """The review of the file at `path`, resuming the decisions saved beside it.
        `conversations`: of a database, every conversation's id in the database's order, which
        reads a review file of an earlier version (that named conversations by their places)."""
        return cls(path, results, extra_tools, conversations)

    def decided_elsewhere(self) -> list[SessionKey]:
        """The sessions not read into this review that have approved or edited fixes saved in the
        review file: an export must `include` them to apply those too (conversation ids first)."""
        return sorted({session for (session, _), decision in self._record.decisions.items()
                       if decision.status in (APPROVED, EDITED) and session not in self._sessions},
                      key=lambda session: (isinstance(session, int), str(session)))

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
        return sum(1 for session, finding in self._record.decisions
                   if session in findings and finding not in findings[session])

    def include(self, result: ScanResult) -> None:
        """Add a session (a database's conversation, with its saved decisions) to the review."""
        self._sessions.append(_session_key(len(self.results), result))
        self.results.append(result)
        self._keys.append(finding_keys(result.findings))

    def findings(self, session: int) -> list[Finding]:
        """The session's findings, ordered by turn."""
        return self.results[session].findings

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

    def undo(self) -> str | None:
        """Undo the last step; a one-line description of it, or None when there is nothing to undo."""
        if not self._undo:
            return None
        label, changes = self._undo.pop()
        for key, previous in changes:
            if previous is None:
                self._record.decisions.pop(key, None)
            else:
                self._record.decisions[key] = previous
        self._record.unexported = True
        self._save()
        return f"undid {label}"

    def record_execution(self, session: int, index: int, executions: Iterable[ExecutionResult]) -> None:
        """Keep what the executor answered for the finding's recovered calls (saved at once); an
        export records these results for the calls when the finding is approved."""
        runs = self._record.executions if self._record.executions is not None else {}
        runs[self._key(session, index)] = tuple(executions)
        self._record.executions = runs
        self._record.unexported = True
        self._save()

    def executions(self, session: int, index: int) -> tuple[ExecutionResult, ...]:
        """The finding's recovered calls as the executor ran them, if they were run."""
        return (self._record.executions or {}).get(self._key(session, index), ())

    def counts(self, session: int) -> Counts:
        """The session's findings by state."""
        statuses = [self.status(session, index) for index in range(len(self.findings(session)))]
        return Counts(len(statuses), statuses.count(APPROVED), statuses.count(EDITED), statuses.count(SKIPPED),
                      statuses.count(PENDING))

    def tool(self, session: int, name: str | None) -> ToolSpec | None:
        """The tool `name` as the session's catalogue knows it (its schema checks edits)."""
        if name is None:
            return None
        if session not in self._catalogues:
            self._catalogues[session] = build_catalogue(self.results[session].session, self._extra_tools)
        return self._catalogues[session].get(name)

    @property
    def read_by_place(self) -> bool:
        """Whether, when the review file was read, its decisions on a database were matched to the
        conversations by their places (the file was written by an earlier version, which kept them so)."""
        return self._record.read_by_place

    @property
    def unexported(self) -> bool:
        """Whether decisions changed since the last export."""
        return self._record.unexported

    def default_export_path(self) -> Path:
        """`NAME.fixed.EXT` beside the input (`NAME.fixed.N.EXT` if that exists already)."""
        stem, suffix = self.path.name.split(".", 1) if "." in self.path.name else (self.path.name, "")
        dot = f".{suffix}" if suffix else ""
        candidate, number = self.path.with_name(f"{stem}.fixed{dot}"), 1
        while candidate.exists():
            candidate, number = self.path.with_name(f"{stem}.fixed.{number}{dot}"), number + 1
        return candidate

    def export(self, out: Path | None = None, overwrite_input: bool = False) -> ExportOutcome:
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
        stamp = _now()
        self._record.exports = (self._record.exports or []) + [{"at": stamp, "out": str(target), "applied": len(applied)}]
        self._record.unexported = False
        self._save()
        return ExportOutcome(target, audit, saved, len(applied))

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

    def _decide(self, label: str, targets: list[tuple[int, int]], status: str, edit: Edit | None) -> None:
        stamp = _now()
        changes = []
        for session, index in targets:
            key = self._key(session, index)
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

    def _key(self, session: int, index: int) -> tuple[SessionKey, str]:
        """The finding's key in the review file: its session's, and its own."""
        return self._sessions[session], self._keys[session][index]

    def _turn(self, session: int, finding: Finding):
        turn = self.results[session].session.turn_at(finding.turn)
        if turn is None:
            raise ReviewError(f"turn {finding.turn} is not in the session")
        return turn

    def _save(self) -> None:
        write_review(self.review_path, self.path, self._record)


def _session_key(place: int, result: ScanResult) -> SessionKey:
    """How the review file names a session: a database's conversation by its id, else its place."""
    session = result.session
    return str(session.session_id) if isinstance(session.document, SqliteSource) else place


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
