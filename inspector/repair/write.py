"""The one write path: the chosen fixes applied and the repaired sessions written back to their
source's storage, with the audit of every applied fix, the same way for `inspector fix` and the
app's export, whatever the storage.

It makes the backup (in place), reads the sessions to repair from what the source says is safe to
read while it is written, applies each session's chosen fixes (with what the user's executor
answered for recovered calls), hands the repaired session to the source's `SessionWriter`, builds
the audit entries from where the writer put each fix, and lets the writer commit both together;
any failure leaves the target as it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterable, Mapping

from inspector.errors import InspectorError
from inspector.model import Finding, Fix, Session
from inspector.repair.apply import apply_fixes
from inspector.repair.audit import audit_entry, ran_by_call
from inspector.repair.execute import ExecutionResult, results_by_call
from inspector.sources.base import AuditRecord, Source


@dataclass(frozen=True)
class Chosen:
    """A session and the findings whose fixes are to be applied to it; for a fix a person edited,
    `proposed` maps the id of the finding carrying the edit to the fix first proposed (the audit
    keeps both)."""

    session: Session
    findings: list[Finding]
    proposed: Mapping[int, Fix] = field(default_factory=dict)


@dataclass(frozen=True)
class WriteOutcome:
    """What a write did: the output, its audit's file and where the audit is for a person, the input's backup when
    the input itself was replaced, and how many fixes were applied."""

    out: Path
    audit: Path
    audit_shown: str
    backup: Path | None
    applied: int


def write_repaired(source: Source, out: Path, chosen: Callable[[Source], Iterable[Chosen]], in_place: bool = False,
                   executions: Iterable[ExecutionResult] = ()) -> WriteOutcome:
    """Apply the fixes `chosen(reading)` gives for each session (read from `reading`) and write the
    repaired sessions into `out`, or into the source itself after a backup when `in_place`, with
    one audit entry per applied fix. `executions` are what the user's executor answered for
    recovered calls: recorded as their results and in the audit of the fixes that recovered them."""
    out = Path(out)
    able = source.capabilities.write_in_place if in_place else source.capabilities.write_copy
    if not able:
        how = "in place" if in_place else "as a copy"
        raise InspectorError(f"{source.path}: the {source.format} format cannot be written {how}; nothing was written")
    saved = source.backup() if in_place else None
    reading = source.reading_while_writing(saved) if saved is not None else source
    stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
    executions = list(executions)
    ran = ran_by_call(executions)
    answers: dict[str | None, list[ExecutionResult]] = {}
    for execution in executions:
        answers.setdefault(execution.session_id, []).append(execution)
    audit: list[AuditRecord] = []
    with source.writer(out, in_place) as writer:
        for choice in chosen(reading):
            session = choice.session
            repaired, fixes = apply_fixes(session, choice.findings, results_by_call(answers.get(session.session_id, ())))
            fixes = [replace(fix, proposed=choice.proposed.get(id(fix.finding))) for fix in fixes]
            audit.extend(AuditRecord(written, audit_entry(written.fix, written.session_id, str(session.path), stamp, ran))
                         for written in writer.write(repaired, fixes))
        place = writer.commit(audit)
    return WriteOutcome(out, place.path, place.shown, saved, len(audit))
