"""A repaired OpenCode session written back to its older JSON storage: the part files a repair
changes or adds, as OpenCode 1.1.65 writes a record (`JSON.stringify(part, null, 2)`: two spaces
of indentation, characters as they are, no final newline).

Which parts change and what each becomes is what the SQLite history's writer writes too
(`inspector.sources.messages.opencode_part_repairs`): a part keeps its keys in their order, a
changed key in its place; a new part (a recovered call) is `part/<message id>/<part id>.json`
with its keys in the order OpenCode's part schema gives them (`id`, `sessionID`, `messageID`,
`type`, `callID`, `tool`, `state`). Messages, the session's file and every other part are left
as they are.
"""

from __future__ import annotations

import json
import time
from typing import Any

from inspector.model import Session
from inspector.sources.files.document import Document
from inspector.sources.messages.opencode_part_repairs import PartRepairs, Parts


def write_records(document: Document, sessions: list[Session]) -> dict[str, str]:
    """The part files the repair of the session changes or adds, by their path in the storage."""
    (session,) = sessions
    value = document.value
    parts: Parts = {}
    for stored in value["messages"]:
        message = stored.get("info") if isinstance(stored, dict) else None
        message_id = message.get("id") if isinstance(message, dict) else None
        if isinstance(message_id, str):
            parts[message_id] = [(_id(part), part) for part in stored.get("parts") or [] if isinstance(part, dict)]
    writer = _PartFiles(parts, int(time.time() * 1000), value["session"]["id"])
    writer.repair(session)
    return writer.files


class _PartFiles(PartRepairs):
    """The part files of one session, rendered as OpenCode writes them."""

    def __init__(self, parts: Parts, now: int, session_id: str) -> None:
        super().__init__(parts, now)
        self.session_id = session_id
        self.files: dict[str, str] = {}

    def store(self, message_id: str, part_id: str, part: dict[str, Any], new: bool) -> None:
        """Render the part into its file (a new one with its ids first, in OpenCode's order)."""
        if new:
            ids = {"id": part_id, "sessionID": self.session_id, "messageID": message_id, "type": part["type"]}
            part = {**ids, "callID": part["callID"], "tool": part["tool"], "state": part["state"]}
        self.files[f"part/{message_id}/{part_id}.json"] = stored_text(part)


def stored_text(record: Any) -> str:
    """A record's file as OpenCode writes it (`JSON.stringify(record, null, 2)`)."""
    return json.dumps(record, indent=2, ensure_ascii=False)


def _id(record: dict[str, Any]) -> str:
    value = record.get("id")
    return value if isinstance(value, str) else ""
