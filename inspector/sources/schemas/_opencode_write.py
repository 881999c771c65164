"""Writing a repaired OpenCode (or Kilo CLI) session back to its `part` rows, as OpenCode writes a
part: its `data` JSON (compact, as `JSON.stringify` writes it) and `time_updated`, and, where
the database logs its sessions' events (`event`, `event_sequence`), a `message.part.updated.1`
event for each part written, next in the session's sequence, as OpenCode's sync log records one.

Which parts change, and what each becomes, is shared with the writer of OpenCode's older JSON
storage (`inspector.sources.messages.opencode_part_repairs`); a secret masked in the session is
masked in its events too (they hold copies of its parts as they were).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from inspector.errors import InspectorError
from inspector.model import AppliedFix, Session, masked_text
from inspector.sources.base import WrittenFix
from inspector.sources.messages.opencode_part_repairs import PartRepairs, Parts, ascending_id, fixes_by_message
from inspector.sources.schemas.contract import conversation_id
from inspector.sources.sql.rows import json_or_none
from inspector.sources.sql.statements import Statements

PART_EVENT = "message.part.updated.1"
LARGEST_INTEGER = 2**63 - 1  # SQLite's


def write_session(conn: Statements, session: Session, fixes: Sequence[AppliedFix], stamp: str) -> list[WrittenFix]:
    """Write the session's repaired parts; returns one audit row per fix."""
    session_id = conversation_id(session)
    now = int(datetime.fromisoformat(stamp).timestamp() * 1000)
    writer = _PartWriter(conn, session_id, now)
    writer.repair(session)
    writer.mask_log(session.masked)
    firsts = fixes_by_message(session, fixes, writer.written)
    return [WrittenFix(fix, session_id, "part", first) for fix, first in zip(fixes, firsts)]


class _PartWriter(PartRepairs):
    """The `part` rows of one session, written as OpenCode writes them (with its event log)."""

    def __init__(self, conn: Statements, session_id: str, now: int) -> None:
        parts: Parts = {}
        for part_id, message_id, data in conn.execute(
            "SELECT id, message_id, data FROM part WHERE session_id = ? ORDER BY message_id, id", [session_id]
        ):
            part = json_or_none(data)
            parts.setdefault(message_id, []).append((part_id, part if isinstance(part, dict) else {}))
        super().__init__(parts, now)
        self.conn = conn
        self.session_id = session_id
        self.logged = conn.has_table("event") and conn.has_table("event_sequence") and self._sequence() is not None

    def store(self, message_id: str, part_id: str, part: dict[str, Any], new: bool) -> None:
        """Update the part's row (or insert a new one), and log it where the database logs events."""
        if new:
            row = {"id": part_id, "message_id": message_id, "session_id": self.session_id}
            self.conn.insert("part", {**row, "time_created": self.now, "time_updated": self.now, "data": _stored(part)})
        else:
            self.conn.execute(
                "UPDATE part SET data = ?, time_updated = ? WHERE id = ?", [_stored(part), self.now, part_id]
            )
        if self.logged:
            self._log(message_id, part_id, part)

    def mask_log(self, masks: tuple[tuple[str, str], ...]) -> None:
        """Mask the secrets a fix masked in the session's earlier events too, which hold copies of
        its parts as they were."""
        if not masks or not self.logged:
            return
        for event_id, data in self.conn.execute(
            "SELECT id, data FROM event WHERE aggregate_id = ?", [self.session_id]
        ).fetchall():
            masked = masked_text(data, masks) if isinstance(data, str) else data
            if masked != data:
                self.conn.execute("UPDATE event SET data = ? WHERE id = ?", [masked, event_id])

    def _log(self, message_id: str, part_id: str, part: dict[str, Any]) -> None:
        seq = (self._sequence() or 0) + 1
        event = {
            "sessionID": self.session_id,
            "part": {"id": part_id, "sessionID": self.session_id, "messageID": message_id, **part},
            "time": self.now,
        }
        self.conn.insert(
            "event",
            {
                "id": ascending_id("evt", self.now),
                "aggregate_id": self.session_id,
                "seq": seq,
                "type": PART_EVENT,
                "data": _stored(event),
            },
        )
        self.conn.execute("UPDATE event_sequence SET seq = ? WHERE aggregate_id = ?", [seq, self.session_id])

    def _sequence(self) -> int | None:
        """The number of the session's last logged event; None when its events are not logged. One
        line refuses a number the next event's cannot follow (no integer, or SQLite's largest)."""
        row = self.conn.execute("SELECT seq FROM event_sequence WHERE aggregate_id = ?", [self.session_id]).fetchone()
        if row is None:
            return None
        seq = row[0]
        if type(seq) is not int or not 0 <= seq < LARGEST_INTEGER:
            raise InspectorError(
                f"session {self.session_id}: its event sequence (event_sequence.seq) is {str(seq)[:40]!r}, which "
                "the next event's number cannot follow; nothing was written"
            )
        return seq


def _stored(value: dict[str, Any]) -> str:
    """JSON as OpenCode stores it (`JSON.stringify`: no spaces, characters as they are)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
