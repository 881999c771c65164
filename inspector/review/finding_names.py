"""How the review file names the sessions read into a review and their findings.

A session file's sessions are named by their places in it (the review reads all of them, in
order); a database's conversations by their ids, so a review of some of them shares the review
file with reviews of the others. A finding is named by its message (`anchors`), and also by the
positional key earlier versions gave it, so their files are still read (`attach`).
"""

from __future__ import annotations

from collections.abc import Iterable

from inspector.review.anchors import FindingKey, anchored_keys
from inspector.review.attach import attached
from inspector.review.review_file import ReviewRecord, SessionKey, finding_keys
from inspector.scan.scanner import ScanResult

# A finding read as the review file names it: its session's key and its own.
DecisionKey = tuple[SessionKey, FindingKey]


class FindingNames:
    """The names of the sessions read into a review, in order, and of each one's findings."""

    def __init__(self, by_id: bool) -> None:
        """`by_id`: sessions are named by their ids (a database's conversations), not their places."""
        self.by_id = by_id
        self.sessions: list[SessionKey] = []
        self.keys: list[list[FindingKey]] = []
        self._positional: list[list[str]] = []

    def add(self, result: ScanResult) -> None:
        """Name a session read into the review (the next one), and its findings."""
        self.sessions.append(self.session_key(len(self.sessions), result))
        positional = finding_keys(result.findings)
        self._positional.append(positional)
        self.keys.append(anchored_keys(result.session, result.findings, positional))

    def session_key(self, place: int, result: ScanResult) -> SessionKey:
        """How the review file names the session of `result`, were it read at `place`: by its id
        where sessions are named so, else by its place."""
        return str(result.session.session_id) if self.by_id else place

    def key(self, session: int, index: int) -> DecisionKey:
        """The name of the finding at `index` of the session at `session`."""
        return self.sessions[session], self.keys[session][index]

    def keys_elsewhere(self, result: ScanResult, place: int) -> list[DecisionKey]:
        """The names of the findings of `result`, a session not read into the review, were it read at `place`."""
        session = self.session_key(place, result)
        keys = anchored_keys(result.session, result.findings, finding_keys(result.findings))
        return [(session, key) for key in keys]

    def place(self, key: DecisionKey) -> tuple[int, int] | None:
        """The (session, index) of the finding `key` names, if it is read into the review (a session
        read again after another program changed it may no longer hold that finding)."""
        session_key, finding_key = key
        if session_key not in self.sessions:
            return None
        session = self.sessions.index(session_key)
        keys = self.keys[session]
        return (session, keys.index(finding_key)) if finding_key in keys else None

    def attach(self, record: ReviewRecord, sessions: Iterable[int] | None = None) -> ReviewRecord:
        """`record` with its saved keys of the sessions at `sessions` (None: all) moved to the
        findings they are about now (`attach.attached`)."""
        numbers = range(len(self.sessions)) if sessions is None else sessions
        return attached(record, self.sessions, self.keys, self._positional, numbers)
