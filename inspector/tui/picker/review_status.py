"""Where a session's review stands, from its review file alone (no session read, no review
opened): pending (a finding without a decision), decided (every finding decided, not exported
since) or exported (every finding decided, and an export made after the last decision).

An export writes every decision of its source, so a session is exported when the review file has
been exported since that session's last decision: always when the file says no decision changed
since its last export, else when the session's last decision is older than that export.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from inspector.errors import InspectorError
from inspector.model import Finding, Location, Session
from inspector.review.anchors import FindingKey, SavedKey, anchored_keys, reattach
from inspector.review.decision_states import PENDING

if TYPE_CHECKING:
    from inspector.review.review_file import ReviewRecord, SessionKey

# The review file's reader is imported when a review is first read (by the picker's scan), so the
# picker is drawn without it.

DECIDED, EXPORTED = "decided", "exported"
STATUSES = (PENDING, DECIDED, EXPORTED)  # in the order a list sorts them: the work left first


@dataclass(frozen=True)
class SavedReview:
    """What a review file says about each session: when each of its findings was decided, and
    when the file was last exported."""

    decided: dict[SessionKey, dict[SavedKey, str]]  # session -> saved finding key -> decided at (ISO 8601)
    exported_at: str | None = None  # the last export, None when none was made
    unexported: bool = False  # whether decisions changed since that export

    @classmethod
    def of(cls, record: ReviewRecord) -> SavedReview:
        """The decisions of a review file's record, by session."""
        decided: dict[SessionKey, dict[SavedKey, str]] = {}
        for (session, finding), decision in record.decisions.items():
            decided.setdefault(session, {})[finding] = decision.decided_at
        exports = record.exports or []
        return cls(decided, str(exports[-1].get("at", "")) if exports else None, record.unexported)

    def exported_since(self, decided_at: str) -> bool:
        """Whether the last export was made after a decision taken at `decided_at`."""
        if self.exported_at is None:
            return False
        return not self.unexported or decided_at < self.exported_at


NO_REVIEW = SavedReview({})


def saved_review(path: Location, table_key: str | None = None) -> SavedReview:
    """The review saved for the source at `path` (read from the table `table_key` names, if any;
    none saved: no decision). An unreadable review file is an `InspectorError` saying why (the
    line the review screen gives)."""
    from inspector.review.review_file import read_review, resumed_review_path

    review_path = resumed_review_path(path, table_key)
    return SavedReview.of(read_review(review_path)) if review_path.exists() else NO_REVIEW


def saved_review_of(path: Location, table_key: str | None = None) -> SavedReview | None:
    """The review saved for the file at `path` (read from the table `table_key` names, if any);
    None when it cannot be read (its rows say "?")."""
    try:
        return saved_review(path, table_key)
    except InspectorError:
        return None


@dataclass(frozen=True)
class SessionKeys:
    """A session's findings as its review names them (`anchors.anchored_keys`: by message, so a
    session written again with messages inserted keeps its decisions), and as an earlier version
    named them (by turn position, read from its files)."""

    anchored: tuple[FindingKey, ...]
    positional: tuple[str, ...]


def review_keys(session: Session, findings: Sequence[Finding]) -> SessionKeys:
    """The keys by which a review file names a session's findings."""
    from inspector.review.review_file import finding_keys

    positional = finding_keys(list(findings))
    return SessionKeys(tuple(anchored_keys(session, findings, positional)), tuple(positional))


def session_status(saved: SavedReview, session: SessionKey, keys: SessionKeys) -> str:
    """The status of the session `session` with findings `keys`: pending, decided or exported;
    "" when it has no finding to review. Saved decisions are matched to the findings as a review
    matches them (`anchors.reattach`)."""
    if not keys.anchored:
        return ""
    decided = saved.decided.get(session, {})
    found = reattach(decided, keys.anchored, keys.positional)
    decided_at = {current: decided[old] for old, current in found.items()}
    if any(key not in decided_at for key in keys.anchored):
        return PENDING
    return EXPORTED if saved.exported_since(max(decided_at.values())) else DECIDED


def sessions_status(saved: SavedReview, sessions: Iterable[tuple[SessionKey, SessionKeys]]) -> str:
    """The status of sessions together (a file's), each given with its findings' keys: the least
    advanced of those with findings ("" when none has any)."""
    present = {session_status(saved, session, keys) for session, keys in sessions}
    return next((status for status in STATUSES if status in present), "")
