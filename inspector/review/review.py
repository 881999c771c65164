"""A person's review of the sessions of one source: approve, edit or skip each finding's fix,
approve or skip every pending finding of a kind at once, undo any number of steps, and export the
repaired sessions with only the approved fixes applied.

Every decision is saved at once to the review file in the state folder (`review_file`, held by
`saved_record`), merged with what another inspector saved there meanwhile (`merge`), and opening
a review resumes the decisions saved there, each on the finding it is about however the session
was written again (`finding_names`, `anchors`). Skipping a finding that has no fix (an info
finding such as `tool-error`) is how it is acknowledged: decided, the turn left as it is. A
decision on a kind may reach sessions not read into the review (a history's other
conversations), whose decisions go to the review file by their ids. The app drives this; it holds
no decision logic of its own.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import replace
from pathlib import Path

from inspector.catalogue import Catalogue, build_catalogue
from inspector.errors import InspectorError
from inspector.model import Finding, Fix, Location, ToolSpec, Turn
from inspector.repair.execute import ExecutionResult
from inspector.repair.write import Chosen, WriteOutcome, write_repaired
from inspector.review.as_read import check_as_read
from inspector.review.baseline import Acknowledged, acknowledged_of, write_baseline
from inspector.review.counts import Counts, ExportPlan
from inspector.review.edits import Edit, edited_fix, proposal
from inspector.review.export_path import default_export_path
from inspector.review.finding_names import DecisionKey, FindingNames
from inspector.review.review_file import (
    APPROVED,
    EDITED,
    PENDING,
    SKIPPED,
    Decision,
    SessionKey,
    resumed_review_path,
    review_path_for,
    timestamp,
)
from inspector.review.saved_record import SavedRecord
from inspector.scan.scanner import ScanResult
from inspector.sources.base import Source
from inspector.support.safe_text import shown_name

# One undo step: what it did, and each finding it changed with the decision it had before (None: pending).
Step = tuple[str, list[tuple[DecisionKey, Decision | None]]]


class ReviewError(InspectorError):
    """A review action that cannot be done, worded to be shown as it is."""


class Review:
    """Every finding of the sessions of one source read so far, the person's decisions on them
    (saved in the review file), the steps that change them, and the export they lead to."""

    def __init__(
        self,
        source: Source,
        results: list[ScanResult],
        extra_tools: Iterable[ToolSpec] = (),
        conversations: Sequence[str] | None = None,
    ) -> None:
        """The review of the sessions `results` of `source` (checked against `extra_tools` too);
        `conversations`: of a database, every conversation's id in the database's order, which
        reads a review file of an earlier version (that named conversations by their places)."""
        self.source = source
        self.path = source.path
        self.review_path = review_path_for(self.path, source.table_key)
        self.results = results
        self._names = FindingNames(source.streams)
        for result in results:
            self._names.add(result)
        self._extra_tools = tuple(extra_tools)
        self._saved = SavedRecord(
            self.review_path,
            resumed_review_path(self.path, source.table_key),
            self.path,
            conversations,
            self._names.attach,
        )
        self._catalogues: dict[int, Catalogue] = {}
        self._undo: list[Step] = []  # the steps taken, the last one last

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

    # what it holds

    def include(self, result: ScanResult) -> None:
        """Add a session (a database's conversation, with its saved decisions) to the review."""
        self.results.append(result)
        self._names.add(result)
        added = [len(self.results) - 1]
        self._saved.attach_also(lambda record: self._names.attach(record, added))

    def findings(self, session: int) -> list[Finding]:
        """The session's findings, ordered by turn."""
        return self.results[session].findings

    def turn_of(self, session: int, finding: Finding) -> Turn:
        """The turn of the session `finding` is about; a `ReviewError` when the session has none there."""
        turn = self.results[session].session.turn_at(finding.turn)
        if turn is None:
            raise ReviewError(f"turn {finding.turn} is not in the session")
        return turn

    def tool(self, session: int, name: str | None) -> ToolSpec | None:
        """The tool `name` as the session's catalogue knows it (its schema checks edits)."""
        if name is None:
            return None
        if session not in self._catalogues:
            self._catalogues[session] = build_catalogue(self.results[session].session, self._extra_tools)
        return self._catalogues[session].get(name)

    @property
    def extra_tools(self) -> tuple[ToolSpec, ...]:
        """The tool definitions the sessions are checked against besides their own (`--tools`)."""
        return self._extra_tools

    @property
    def read_by_place(self) -> bool:
        """Whether, when the review file was read, its decisions on a database were matched to the
        conversations by their places (the file was written by an earlier version, which kept them so)."""
        return self._saved.record.read_by_place

    @property
    def unexported(self) -> bool:
        """Whether decisions changed since the last export."""
        return self._saved.record.unexported

    def record_execution(self, session: int, index: int, executions: Iterable[ExecutionResult]) -> None:
        """Keep what the executor answered for the finding's recovered calls (saved at once); an
        export records these results for the calls when the finding is approved."""
        record, key = self._saved.record, self._names.key(session, index)
        runs = record.executions if record.executions is not None else {}
        runs[key] = tuple(executions)
        self._saved.changed.runs.add(key)
        record.executions = runs
        record.unexported = True
        self._saved.save()

    def executions(self, session: int, index: int) -> tuple[ExecutionResult, ...]:
        """The finding's recovered calls as the executor ran them, if they were run."""
        return (self._saved.record.executions or {}).get(self._names.key(session, index), ())

    # deciding

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
        return edited_fix(finding, self.turn_of(session, finding), edit)

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

    # saving

    def merge_notice(self) -> str | None:
        """Once after a save took in decisions another inspector saved on the same review, or kept
        this one's on findings both decided differently: one line saying how many; None otherwise."""
        return self._saved.merge_notice()

    def unsaved_notice(self) -> str | None:
        """Once, after a decision could not be saved: a line saying why and where they could go;
        None otherwise (and again after a save succeeds and a later one fails)."""
        return self._saved.unsaved_notice()

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

    def _decision(self, session: int, index: int) -> Decision | None:
        return self._saved.record.decisions.get(self._names.key(session, index))

    def _name(self, session: int, index: int) -> str:
        finding = self.findings(session)[index]
        return f"{finding.kind} at turn {finding.turn}"

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


def _can_take(finding: Finding, kind: str, status: str) -> bool:
    """Whether `finding` is of `kind` and can be given `status`: approving needs a fix."""
    return finding.kind == kind and (status != APPROVED or finding.fix is not None)
