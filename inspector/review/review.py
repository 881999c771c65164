"""A person's review of one session file: approve, edit or skip each finding's fix, undo any
number of steps, and export the repaired file with only the approved fixes applied.

Every decision is saved at once to the review file beside the session (`review_file`), and
opening a review resumes the decisions saved there. This module holds the review's sessions and
matches the saved decisions to them; deciding is `review_decisions`, exporting `review_export`.
The TUI drives this; it holds no decision logic of its own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Collection, Iterable, Sequence

from inspector.catalogue import Catalogue, build_catalogue
from inspector.repair.execute import ExecutionResult
from inspector.sources.sqlite.database import SqliteSource
from inspector.model import Finding, ToolSpec, Turn
from inspector.review.decisions import DecisionSteps, ReviewError
from inspector.review.export import ReviewExport
from inspector.review.review_file import APPROVED, EDITED, SessionKey, finding_keys, read_review, review_path_for, write_review
from inspector.scan.scanner import ScanResult

__all__ = ["Review"]


class Review(DecisionSteps, ReviewExport):
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
        self._undo = []

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

    def _key(self, session: int, index: int) -> tuple[SessionKey, str]:
        """The finding's key in the review file: its session's, and its own."""
        return self._sessions[session], self._keys[session][index]

    def _turn(self, session: int, finding: Finding) -> Turn:
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
