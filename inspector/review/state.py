"""What a review holds: the sessions read (with their findings), the decisions saved in the
review file, and the lookups every step of a review uses. Deciding (`decisions`), exporting
(`export`) and the review itself (`review`) build on it, in that order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from inspector.catalogue import Catalogue, build_catalogue
from inspector.errors import InspectorError
from inspector.model import Finding, ToolSpec, Turn
from inspector.repair.execute import ExecutionResult
from inspector.review.anchors import FindingKey, SavedKey, anchored_keys
from inspector.review.attach import attached
from inspector.review.merge import Changed, Merged, save_merging, snapshot
from inspector.review.review_file import (
    ReviewRecord,
    SessionKey,
    finding_keys,
    read_review,
    resumed_review_path,
    review_path_for,
)
from inspector.scan.scanner import ScanResult
from inspector.sources.base import Source


class ReviewError(InspectorError):
    """A review action that cannot be done, worded to be shown as it is."""


class ReviewState:
    """Every finding of the sessions of one source read so far, and the person's decisions.

    A session file's sessions are named in the review file by their places in it (the results
    are all of them, in order); a database's conversations by their ids, so a review of some of
    them shares the review file with reviews of the others, and `include` adds one read later.
    Findings are named by their messages (`anchors`); every save merges what another inspector
    saved meanwhile (`merge`)."""

    def __init__(
        self,
        source: Source,
        results: list[ScanResult],
        extra_tools: Iterable[ToolSpec] = (),
        conversations: Sequence[str] | None = None,
    ) -> None:
        self.source = source
        self.path = source.path
        self.review_path = review_path_for(self.path, source.table_key)
        self.results = results
        self._sessions = [self._session_key(place, result) for place, result in enumerate(results)]
        self._extra_tools = tuple(extra_tools)
        self._positional: list[list[str]] = []
        self._keys: list[list[FindingKey]] = []
        for result in results:
            self._add_keys(result)
        self._conversations = conversations
        self._record = self._attach(read_review(resumed_review_path(self.path, source.table_key), conversations))
        self._base = snapshot(self._record)  # the review as last read or saved: what a merge starts from
        self._changed = Changed()  # since the base
        self._catalogues: dict[int, Catalogue] = {}
        self._undo = []
        self._unsaved: str | None = None  # why the last save failed, if it did
        self._unsaved_said: str | None = None
        self._merged: Merged | None = None  # the last save's merge, when it took in another inspector's decisions

    def include(self, result: ScanResult) -> None:
        """Add a session (a database's conversation, with its saved decisions) to the review."""
        self._sessions.append(self._session_key(len(self.results), result))
        self.results.append(result)
        self._add_keys(result)
        added = [len(self.results) - 1]
        self._record = attached(self._record, self._sessions, self._keys, self._positional, added)
        self._base = attached(self._base, self._sessions, self._keys, self._positional, added)

    def findings(self, session: int) -> list[Finding]:
        """The session's findings, ordered by turn."""
        return self.results[session].findings

    def record_execution(self, session: int, index: int, executions: Iterable[ExecutionResult]) -> None:
        """Keep what the executor answered for the finding's recovered calls (saved at once); an
        export records these results for the calls when the finding is approved."""
        runs = self._record.executions if self._record.executions is not None else {}
        runs[self._key(session, index)] = tuple(executions)
        self._changed.runs.add(self._key(session, index))
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

    def _key(self, session: int, index: int) -> tuple[SessionKey, SavedKey]:
        """The finding's key in the review file: its session's, and its own."""
        return self._sessions[session], self._keys[session][index]

    def _turn(self, session: int, finding: Finding) -> Turn:
        turn = self.results[session].session.turn_at(finding.turn)
        if turn is None:
            raise ReviewError(f"turn {finding.turn} is not in the session")
        return turn

    def _add_keys(self, result: ScanResult) -> None:
        """Name the findings of a session added to the review."""
        positional = finding_keys(result.findings)
        self._positional.append(positional)
        self._keys.append(anchored_keys(result.session, result.findings, positional))

    def _attach(self, record: ReviewRecord) -> ReviewRecord:
        """A review file's record with its decisions keyed by the findings of the sessions read."""
        return attached(record, self._sessions, self._keys, self._positional, range(len(self._sessions)))

    def _save(self) -> None:
        """Save the decisions, merged with those another inspector saved meanwhile (`merge_notice`
        says so); when they cannot be saved, keep deciding in memory and remember why
        (`unsaved_notice` says it once)."""
        try:
            merged = save_merging(
                self.review_path, self.path, self._base, self._record, self._changed, self._attach, self._conversations
            )
        except InspectorError as error:
            self._unsaved = self._unsaved or str(error)
            return
        self._unsaved = None
        self._record, self._base = merged.record, snapshot(merged.record)
        self._changed.clear()
        if merged.adopted or merged.conflicts:
            self._merged = merged

    def merge_notice(self) -> str | None:
        """Once after a save took in decisions another inspector saved on the same review, or kept
        this one's on findings both decided differently: one line saying how many; None otherwise."""
        merged, self._merged = self._merged, None
        if merged is None:
            return None
        conflicts = (
            f"{merged.conflicts} conflict{'s' if merged.conflicts != 1 else ''} (a finding both decided "
            "differently): this one's decision, the later, was kept"
        )
        if not merged.adopted:
            return f"{conflicts[:1].upper()}{conflicts[1:]} over another inspector's"
        line = f"Merged {_decisions(merged.adopted)} saved by another inspector"
        return f"{line}; {conflicts}" if merged.conflicts else line

    def unsaved_notice(self) -> str | None:
        """Once, after a decision could not be saved: a line saying why and where they could go;
        None otherwise (and again after a save succeeds and a later one fails)."""
        if self._unsaved is None or self._unsaved_said == self._unsaved:
            return None
        self._unsaved_said = self._unsaved
        return (
            f"Decisions cannot be saved ({self._unsaved}): they are kept while the app is open. Export them "
            f"(x), or make {self.review_path.parent} writable, or set XDG_STATE_HOME to a writable folder"
        )

    def _session_key(self, place: int, result: ScanResult) -> SessionKey:
        """How the review file names a session: by its id where the source is read one session at
        a time (a database's conversations: a review may hold some of them), else by its place."""
        return str(result.session.session_id) if self.source.streams else place


def _decisions(count: int) -> str:
    return f"{count} decision{'s' if count != 1 else ''}"
