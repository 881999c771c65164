"""What a review holds: the sessions of one source read so far (more are added as they are read),
their findings, turns and tools, what the executor answered for a finding's recovered calls, and
the decision saved on each finding, with the fix it leads to.

The decisions live in the review file in the state folder (`review_file`, held by `saved_record`),
merged with what another inspector saved there meanwhile (`merge`); opening a review resumes
them, each on the finding it is about however the session was written again (`finding_names`,
`anchors`). The steps that change them are `review_decisions`'s, the export `review`'s.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from inspector.catalogue import Catalogue, build_catalogue
from inspector.model import Finding, Fix, ToolSpec, Turn
from inspector.repair.execute import ExecutionResult
from inspector.review.edits import Edit, edited_fix
from inspector.review.finding_names import DecisionKey, FindingNames
from inspector.review.review_error import ReviewError
from inspector.review.review_file import (
    APPROVED,
    EDITED,
    PENDING,
    Decision,
    resumed_review_path,
    review_path_for,
)
from inspector.review.saved_record import SavedRecord
from inspector.scan.scanner import ScanResult
from inspector.sources.base import Source

# One undo step: what it did, and each finding it changed with the decision it had before (None: pending).
Step = tuple[str, list[tuple[DecisionKey, Decision | None]]]


class ReviewedSessions:
    """Every finding of the sessions of one source read so far, the person's decisions on them
    (saved in the review file) and the steps taken, the last one last."""

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

    # the decision on each finding

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

    # saving

    def merge_notice(self) -> str | None:
        """Once after a save took in decisions another inspector saved on the same review, or kept
        this one's on findings both decided differently: one line saying how many; None otherwise."""
        return self._saved.merge_notice()

    def unsaved_notice(self) -> str | None:
        """Once, after a decision could not be saved: a line saying why and where they could go;
        None otherwise (and again after a save succeeds and a later one fails)."""
        return self._saved.unsaved_notice()

    def _decision(self, session: int, index: int) -> Decision | None:
        return self._saved.record.decisions.get(self._names.key(session, index))
