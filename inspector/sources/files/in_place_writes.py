"""The writes in place an audit records, and what undoing one did: shared by `inspector undo` of a
session file (`file_undo`) and of a session of OpenCode's storage (`record_files_undo`).

Each entry of a write in place records it under `in_place` (`file_audit.IN_PLACE`): the backup
saved before it, and what it wrote (a file's SHA-256, or a storage session's files'). A write is
its entries with the same backup and time; an undo adds an entry of kind `undo` naming the write
it undid (its time) and the backup it put back. Read in order, the writes not undone since are a
stack: the last one is undone first.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from inspector.sources.files.file_audit import IN_PLACE, audit_entries
from inspector.support.safe_text import utf8_bytes

UNDO = "undo"  # the kind of the audit entry an undo adds


@dataclass(frozen=True)
class RecordedWrite:
    """One write in place as the audit records it: the backup saved before it, what its entries
    record of it (`in_place`), when it was applied, and how many fixes it applied."""

    backup: str
    written: dict[str, Any]
    applied_at: str
    fixes: int


@dataclass(frozen=True)
class Undone:
    """What an undo did: when the write undone was applied and how many fixes it applied, the
    backup put back, where the file (a storage session's files) as that write left it was kept,
    and the audit that records the undo."""

    applied_at: str
    fixes: int
    restored: Path
    kept: Path
    audit: Path


def writes_not_undone(out: Path, belongs: Callable[[dict[str, Any]], bool]) -> tuple[list[RecordedWrite], bool]:
    """The writes in place `out`'s audit records and no undo has undone since, first to last, and
    whether it records any: of those, the ones whose `in_place` record `belongs` (and the undos
    whose entry does), a backup's name in it."""
    stack: list[RecordedWrite] = []
    recorded = False
    for _, entry in audit_entries(out):
        if entry.get("kind") == UNDO:
            undid = (entry.get("restored"), entry.get("undid"))
            if stack and belongs(entry) and (stack[-1].backup, stack[-1].applied_at) == undid:
                stack.pop()
            continue
        written = entry.get(IN_PLACE)
        if not isinstance(written, dict) or not isinstance(written.get("backup"), str) or not belongs(written):
            continue  # a write into another file, another session's, or by a version that did not record it
        recorded = True
        backup, applied_at = written["backup"], str(entry.get("applied_at"))
        if stack and (stack[-1].backup, stack[-1].applied_at) == (backup, applied_at):  # (the same write's)
            stack[-1] = RecordedWrite(backup, written, applied_at, stack[-1].fixes + 1)
        else:
            stack.append(RecordedWrite(backup, written, applied_at, 1))
    return stack, recorded


def undo_line(source: Path, write: RecordedWrite, kept: Path, **more: Any) -> bytes:
    """The audit line recording the undo of `write` of `source`, with `more` of what it put back."""
    entry: dict[str, Any] = {
        "kind": UNDO,
        "undone_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "source": str(source),
        "undid": write.applied_at,
        "fixes": write.fixes,
        "restored": write.backup,
        "kept": kept.name,
        **more,
    }
    return utf8_bytes(json.dumps(entry, ensure_ascii=False) + "\n")
