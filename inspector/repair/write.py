"""The one write path: repaired sessions written back to their source's storage, with the audit of
every applied fix, the same way for `inspector fix` and the app's export, whatever the storage.

It makes the backup (in place), reads the sessions to repair from what the source says is safe to
read while it is written, hands each repaired session to the source's `SessionWriter`, builds the
audit entries from where the writer put each fix, and lets the writer commit both together; any
failure leaves the target as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterable

from inspector.errors import InspectorError
from inspector.model import AppliedFix, Session
from inspector.repair.audit import audit_entry, ran_by_call
from inspector.repair.execute import ExecutionResult
from inspector.sources.base import AuditRecord, Source

Repaired = Iterable[tuple[Session, list[AppliedFix]]]


@dataclass(frozen=True)
class WriteOutcome:
    """What a write did: the output, its audit's file and where the audit is for a person, the input's backup when
    the input itself was replaced, and how many fixes were applied."""

    out: Path
    audit: Path
    audit_shown: str
    backup: Path | None
    applied: int


def write_repaired(source: Source, out: Path, repaired: Callable[[Source], Repaired], in_place: bool = False,
                   executions: Iterable[ExecutionResult] = ()) -> WriteOutcome:
    """Write the sessions `repaired(reading)` gives (each with the fixes applied to it, read from
    `reading`) into `out`, or into the source itself after a backup when `in_place`, with one audit
    entry per applied fix. `executions` are what the user's executor answered for recovered calls,
    recorded with the fixes that recovered them."""
    out = Path(out)
    able = source.capabilities.write_in_place if in_place else source.capabilities.write_copy
    if not able:
        how = "in place" if in_place else "as a copy"
        raise InspectorError(f"{source.path}: the {source.format} format cannot be written {how}; nothing was written")
    saved = source.backup() if in_place else None
    reading = source.reading_while_writing(saved) if saved is not None else source
    stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
    ran = ran_by_call(executions)
    audit: list[AuditRecord] = []
    with source.writer(out, in_place) as writer:
        for session, fixes in repaired(reading):
            audit.extend(AuditRecord(written, audit_entry(written.fix, written.session_id, str(session.path), stamp, ran))
                         for written in writer.write(session, fixes))
        place = writer.commit(audit)
    return WriteOutcome(out, place.path, place.shown, saved, len(audit))
