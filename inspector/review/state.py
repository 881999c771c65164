"""What a review holds: the sessions read (with their findings), the decisions saved in the
review file, and the lookups every step of a review uses. Deciding (`decisions`), exporting
(`export`) and the review itself (`review`) build on it, in that order.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from inspector.catalogue import Catalogue, build_catalogue
from inspector.errors import InspectorError
from inspector.model import Finding, ToolSpec, Turn
from inspector.repair.execute import ExecutionResult
from inspector.review.review_file import (SessionKey, earlier_review_path, finding_keys, read_review, review_path_for,
                                         write_review)
from inspector.scan.scanner import ScanResult
from inspector.sources.base import Source


class ReviewError(InspectorError):
    """A review action that cannot be done, worded to be shown as it is."""


class ReviewState:
    """Every finding of the sessions of one source read so far, and the person's decisions.

    A session file's sessions are named in the review file by their places in it (the results
    are all of them, in order); a database's conversations by their ids, so a review of some of
    them shares the review file with reviews of the others, and `include` adds one read later."""

    def __init__(self, source: Source, results: list[ScanResult], extra_tools: Iterable[ToolSpec] = (),
                 conversations: Sequence[str] | None = None) -> None:
        self.source = source
        self.path = source.path
        self.review_path = review_path_for(self.path)
        self.results = results
        self._sessions = [self._session_key(place, result) for place, result in enumerate(results)]
        self._extra_tools = tuple(extra_tools)
        self._keys = [finding_keys(result.findings) for result in results]
        earlier = earlier_review_path(self.path)
        resumed = self.review_path if self.review_path.exists() or not earlier.exists() else earlier
        self._record = read_review(resumed, conversations)
        self._catalogues: dict[int, Catalogue] = {}
        self._undo = []
        self._unsaved: str | None = None  # why the last save failed, if it did
        self._unsaved_said: str | None = None

    def include(self, result: ScanResult) -> None:
        """Add a session (a database's conversation, with its saved decisions) to the review."""
        self._sessions.append(self._session_key(len(self.results), result))
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
    def extra_tools(self) -> tuple[ToolSpec, ...]:
        """The tool definitions the sessions are checked against besides their own (`--tools`)."""
        return self._extra_tools

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
        """Save the decisions; when they cannot be saved, keep deciding in memory and remember why
        (`unsaved_notice` says it once)."""
        try:
            write_review(self.review_path, self.path, self._record)
        except InspectorError as error:
            self._unsaved = self._unsaved or str(error)
        else:
            self._unsaved = None

    def unsaved_notice(self) -> str | None:
        """Once, after a decision could not be saved: a line saying why and where they could go;
        None otherwise (and again after a save succeeds and a later one fails)."""
        if self._unsaved is None or self._unsaved_said == self._unsaved:
            return None
        self._unsaved_said = self._unsaved
        return (f"Decisions cannot be saved ({self._unsaved}): they are kept while the app is open. Export them "
                f"(x), or make {self.review_path.parent} writable, or set XDG_STATE_HOME to a writable folder")

    def _session_key(self, place: int, result: ScanResult) -> SessionKey:
        """How the review file names a session: by its id where the source is read one session at
        a time (a database's conversations: a review may hold some of them), else by its place."""
        return str(result.session.session_id) if self.source.streams else place
