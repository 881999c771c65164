"""The one write path: the chosen fixes applied and the repaired sessions written back to their
source's storage, with the audit of every applied fix, the same way for `inspector fix` and the
app's export, whatever the storage.

It checks where it will write before anything is written (`check_targets`): no file it writes
(the output, the audit beside it, a backup) may be the input by any name (a symlink, a hard link:
the device and inode are compared); only a regular file is ever written or replaced; an existing
output is replaced only when the person chose to (`replace_existing`: `fix --force`, or the app's
export). With `to` (`fix --to openai`) the sessions are written as a new file in another format by
that format's writer (`EXPORT_WRITERS`), whatever the source can write itself, never in place.
Then the writer opens the target (in place: taking the storage's write lock, if it has
one), makes the backup under that lock, and the sessions to repair are read from what the source
says is safe to read while it is written (an SQLite history: that backup, which is exactly what
the lock protects). Each session's chosen fixes are applied (with what the user's executor
answered for recovered calls), except those the target's own audit records as applied already
(a fix is never applied twice), the repaired session goes to the source's `SessionWriter` (one
that takes batches, a server's database, gets the sessions with findings a batch at a time, so
that it may lock and check a batch's rows in a few round trips), the audit entries are built
from where the writer put each fix, and the writer commits both together.

What lands, and in what order, so that nothing partial stays behind:

- every file is written under a hidden temporary name beside its real one, flushed to disk, then
  renamed, and its directory flushed (`inspector.support.atomic_files`); a failure removes it;
- a backup takes its name (`PATH.bak`, `PATH.bak.N`) only once complete: a backup that does not
  fit leaves nothing, and nothing else is written;
- a session file's output and its audit (`OUT.audit.ndjson`) are both staged, then the audit is
  renamed first and the output second: there is never an output without its audit. A failure
  between the two puts the previous audit back. A process killed between the two leaves the new
  audit beside the output as it was (or no output): that audit records fixes that are not in the
  output, the input is untouched, and running the same `fix` again replaces it with its own;
- an SQLite history is written in one transaction holding the audit rows too (a new database is
  a temporary copy renamed into place after the commit): all or nothing, by SQLite.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

from inspector.errors import InspectorError
from inspector.model import Finding, Fix, Location, ServerUrl, Session
from inspector.repair.apply import apply_fixes
from inspector.repair.audit import Ran, audit_entry, ran_by_call
from inspector.repair.execute import ExecutionResult, results_by_call
from inspector.repair.mask_check import secrets_still_held, still_held_line
from inspector.sources.base import AuditRecord, SessionWriter, Source, WriteOptions, file_output
from inspector.sources.files.file_state import ChangedSinceRead
from inspector.sources.formats.openai import NAME as OPENAI
from inspector.sources.openai_export import OpenAIExportWriter, export_paths
from inspector.support.gc_pause import collector_paused
from inspector.support.safe_text import shown_name

BATCH_TURNS = 20_000  # turns a batch of sessions (for a writer taking several at once) holds at most
# The formats any session can be written as (`fix --to`), besides its own: each one's writer.
EXPORT_WRITERS: dict[str, Callable[[Path, bool], SessionWriter]] = {OPENAI: OpenAIExportWriter}


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
    the input itself was replaced, how many fixes were applied, one line naming what the
    output could not hold ('' when nothing: always, unless written into another format), and
    the baseline the review's export wrote beside the output (`inspector.review.baseline`)."""

    out: Location
    audit: Location
    audit_shown: str
    backup: Path | None
    applied: int
    left_out: str = ""
    baseline: Path | None = None  # the review's export: the baseline naming the findings skipped, if any
    secrets_left: int = 0  # masked secrets the output still holds where its writer cannot mask


def write_repaired(
    source: Source,
    out: Location,
    chosen: Callable[[Source], Iterable[Chosen]],
    in_place: bool = False,
    executions: Iterable[ExecutionResult] = (),
    replace_existing: bool = False,
    allow_triggers: bool = False,
    to: str | None = None,
) -> WriteOutcome:
    """Apply the fixes `chosen(reading)` gives for each session (read from `reading`) and write the
    repaired sessions into `out`, or into the source itself after a backup when `in_place`, with
    one audit entry per applied fix. `executions` are what the user's executor answered for
    recovered calls: recorded as their results and in the audit of the fixes that recovered them.
    An existing `out` is replaced only when `replace_existing`; a database whose own triggers
    would run on what is written is written only when `allow_triggers`. With `to` (a name in
    `EXPORT_WRITERS`), the sessions are written as a new file in that format instead of the
    source's own, whatever the source can write itself."""
    out = source.path if in_place else out  # in place: the source, a file or a server's database
    check_targets(source, out, in_place, replace_existing, to)
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    executions = list(executions)
    ran = ran_by_call(executions)
    answers: dict[str | None, list[ExecutionResult]] = {}
    for execution in executions:
        answers.setdefault(execution.session_id, []).append(execution)
    audit: list[AuditRecord] = []
    options = WriteOptions(replace_existing, allow_triggers)
    with collector_paused(), _writer(source, out, in_place, options, to) as writer:  # many objects, few freed
        saved = writer.backup() if in_place else None
        reading = writer.reading(source, saved)
        for batch in _batches(chosen(reading), writer.batch):
            audit.extend(_write_batch(writer, batch, answers, ran, stamp))
        try:
            place = writer.commit(audit)
        except ChangedSinceRead:
            if saved is not None:  # a copy of what is left as it is: nothing of this run stays behind
                _remove_backup(saved)
            raise
    held = secrets_still_held(out, {secret for record in audit for secret, _ in record.written.fix.masks})
    left_out = "; ".join(line for line in (writer.left_out(), still_held_line(held, out)) if line)
    return WriteOutcome(out, place.path, place.shown, saved, len(audit), left_out, secrets_left=held)


def _remove_backup(saved: Path) -> None:
    """Remove the backup `saved`: a file, or a folder (a storage of one file per record)."""
    if saved.is_dir():
        import shutil  # imported here: only a refused write in place needs it

        shutil.rmtree(saved, ignore_errors=True)
    else:
        saved.unlink(missing_ok=True)


def _batches(choices: Iterable[Chosen], size: int) -> Iterator[list[Chosen]]:
    """The choices in batches for a writer taking `size` sessions at once: with 1, each as it
    comes, findings or not; with more, only those with findings, never holding more than
    `BATCH_TURNS` turns (a larger session is a batch of its own)."""
    if size == 1:
        yield from ([choice] for choice in choices)
        return
    batch: list[Chosen] = []
    turns = 0
    for choice in choices:
        if not choice.findings:
            continue
        if batch and (len(batch) == size or turns + len(choice.session.turns) > BATCH_TURNS):
            yield batch
            batch, turns = [], 0
        batch.append(choice)
        turns += len(choice.session.turns)
    if batch:
        yield batch


def _write_batch(
    writer: SessionWriter,
    batch: list[Chosen],
    answers: Mapping[str | None, list[ExecutionResult]],
    ran: Ran,
    stamp: str,
) -> list[AuditRecord]:
    """Apply each chosen session's fixes (but those the target's audit records as applied), have
    the writer write the batch, and build the audit of what it wrote."""
    recorded = writer.recorded_batch([choice.session.session_id for choice in batch if choice.findings])
    repaired = []
    for choice in batch:
        session = choice.session
        findings = _not_applied_yet(session, choice.findings, recorded.get(session.session_id, set()))
        fixed, fixes = apply_fixes(session, findings, results_by_call(answers.get(session.session_id, ())))
        repaired.append((fixed, [replace(fix, proposed=choice.proposed.get(id(fix.finding))) for fix in fixes]))
    return [
        AuditRecord(written, audit_entry(written.fix, written.session_id, str(choice.session.path), stamp, ran))
        for choice, wrote in zip(batch, writer.write_batch(repaired))
        for written in wrote
    ]


def _writer(source: Source, out: Location, in_place: bool, options: WriteOptions, to: str | None) -> SessionWriter:
    """The writer into `out`: the source's own, or the one of the format `to`."""
    if to is None:
        return source.writer(out, in_place, options)
    return EXPORT_WRITERS[to](file_output(out), options.replace_existing)


def check_targets(source: Source, out: Location, in_place: bool, replace_existing: bool, to: str | None = None) -> None:
    """Fail with one line, before anything is written or run, unless writing `source` into `out`
    (itself when `in_place`; in the format `to` when given) is safe: the source can be written
    that way (into another format: always, but never in place), no file written is the input by
    any name, only regular files are written, and an existing output is replaced only when
    `replace_existing`."""
    written = _written_paths(source, out, in_place, to)
    if in_place and not written:  # a server's database: its own transaction writes it, no file here
        return
    source_status = _status(source.path)
    if source_status is None or not stat.S_ISREG(source_status.st_mode):
        if in_place:
            raise InspectorError(f"{shown_name(source.path)}: is not a regular file; nothing was written")
        source_status = None
    for path in written:
        if in_place and path == out:
            continue
        status = _status(path)
        if source_status is not None and status is not None and _same_file(status, source_status):
            raise InspectorError(
                f"{shown_name(path)}: is the input {shown_name(source.path)} (the same file by another name); "
                f"nothing was written: choose another output"
            )
        if os.path.lexists(path) and (status is None or not stat.S_ISREG(status.st_mode)):
            raise InspectorError(f"{shown_name(path)}: is not a regular file; nothing was written")
        if path == out and status is not None and not (in_place or replace_existing):
            raise InspectorError(
                f"{shown_name(path)}: exists already; nothing was written (choose another output, or --force to replace it)"
            )


def _written_paths(source: Source, out: Location, in_place: bool, to: str | None) -> list[Path]:
    """Every file the write creates or replaces, once the source (or the format `to`) is known
    to write that way."""
    if to is not None:
        if to not in EXPORT_WRITERS:
            raise InspectorError(f"--to {to}: unknown format (choose from: {', '.join(EXPORT_WRITERS)})")
        if in_place:
            raise InspectorError(f"--to {to}: writes a new file (-o OUT), never in place; nothing was written")
        return export_paths(file_output(out))
    able = source.capabilities.write_in_place if in_place else source.capabilities.write_copy
    if not able:
        raise InspectorError(source.cannot_write(in_place))
    return source.written_paths(out)


def _status(path: Location) -> os.stat_result | None:
    """The file at `path` (a symlink followed), or None when there is none (a server's database is
    no file)."""
    if isinstance(path, ServerUrl):
        return None
    try:
        return os.stat(path)
    except (OSError, ValueError):
        return None


def _same_file(one: os.stat_result, other: os.stat_result) -> bool:
    return (one.st_dev, one.st_ino) == (other.st_dev, other.st_ino)


def _not_applied_yet(session: Session, findings: list[Finding], recorded: set[tuple[int, str, str]]) -> list[Finding]:
    """The findings whose fix the target's audit does not record as applied already to the same
    turn, of the same kind, on the same text."""
    if not recorded:
        return findings
    return [
        finding for finding in findings if (finding.turn, finding.kind, _text_of(session, finding.turn)) not in recorded
    ]


def _text_of(session: Session, position: int) -> str | None:
    turn = session.turn_at(position)
    return None if turn is None else turn.text
