"""Whether the conversations a review read are still as it read them, checked before an export
writes them back into their history in place.

A review reads a conversation when it opens and exports it much later; meanwhile the application
that keeps the history may have written to it (a new answer, an edited message). The export
applies the person's fixes to the conversation as it was read, so writing it back in place would
overwrite what was written since: each conversation is read again through what the write reads
(for a server, the writing transaction's snapshot, whose rows the writer then checks under lock)
and compared with the review's copy, message by message (id and content), and a difference
refuses the whole write.
"""

from __future__ import annotations

from collections.abc import Iterable

from inspector.errors import InspectorError
from inspector.model import Session
from inspector.review.anchors import content_digest
from inspector.sources.base import Source


def check_as_read(reading: Source, sessions: Iterable[Session]) -> None:
    """Fail with one line naming the first conversation of `sessions` that `reading` no longer
    holds as it was read."""
    for session in sessions:
        try:
            now = reading.session(str(session.session_id))
        except InspectorError:
            now = None
        if now is None or _messages(now) != _messages(session):
            raise InspectorError(
                f"conversation {session.session_id} is no longer as it was read (another program, "
                "or an earlier export, wrote to it since): open it again to review it as it is now "
                "(your decisions are kept)"
            )


def _messages(session: Session) -> list[tuple[int, str | None, str]]:
    """Each message's place, id and content digest."""
    return [(turn.position, turn.id, content_digest(turn)) for turn in session.turns]
