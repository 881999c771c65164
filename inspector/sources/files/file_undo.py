"""`inspector undo FILE`: a session file put back as it was before its last `fix --in-place`.

The file's audit (`file_audit`) records each write in place: the backup saved before it and the
SHA-256 of the file it wrote; those not undone since are a stack (`in_place_writes`): the last one
is undone first, then the one before it, and so on.

A write is undone only while the file is exactly as it wrote it (its SHA-256): an agent that added
turns since would lose them (its `parentUuid` chain may hang from a turn the fix added, so they are
not carried over either). The file as the fix wrote it is first saved as one more backup, then the
backup from before the fix lands in its place with the audit's new entry, together (the audit
first; a failure puts it back), and only while the file has not changed since it was checked.
"""

from __future__ import annotations

import hashlib
import shlex
from pathlib import Path
from typing import Any

from inspector.errors import InspectorError
from inspector.sources.base import backups_of, save_backup
from inspector.sources.files.file_audit import (
    AUDIT_SUFFIX,
    audit_path_for,
    audit_so_far,
    land_file_and_audit,
)
from inspector.sources.files.file_state import check_unchanged, state_of
from inspector.sources.files.in_place_writes import UNDO, RecordedWrite, Undone, undo_line, writes_not_undone
from inspector.sources.files.opencode_storage import is_storage_session
from inspector.sources.files.record_files_undo import undo_last_storage_write
from inspector.support.safe_text import neutralise, shown_name


def writes_to_undo(path: Path) -> tuple[list[RecordedWrite], bool]:
    """The writes in place of `path` its audit records and no undo has undone, first to last, and
    whether it records any write in place at all."""
    return writes_not_undone(path, _records_a_file_write)


def _records_a_file_write(record: dict[str, Any]) -> bool:
    """Whether an audit entry's record of a write in place (or an undo's entry) is a file's: the
    SHA-256 of what it wrote in it."""
    return record.get("kind") == UNDO or isinstance(record.get("written_sha256"), str)


def undo_last_write(path: Path) -> Undone:
    """Put `path` back as it was before its last write in place not undone yet, recording the
    undo in its audit; one `InspectorError` line, and nothing changed, when it cannot be."""
    described = path.with_name(path.name.removesuffix(AUDIT_SUFFIX))
    if path.name.endswith(AUDIT_SUFFIX) and described.is_file():
        raise InspectorError(
            f"{shown_name(path)}: the audit of {shown_name(described)}, which undo puts back: "
            f"inspector undo {neutralise(shlex.quote(str(described)))}"
        )
    if is_storage_session(path):
        return undo_last_storage_write(path)
    writes, recorded = writes_to_undo(path)
    if not writes and recorded:
        raise InspectorError(
            f"{shown_name(path)}: every fix --in-place its audit records is undone already: nothing was changed"
        )
    if not writes:
        raise InspectorError(_nothing_recorded(path))
    write = writes[-1]
    backup = _backup_named(path, write)
    read_as = state_of(path)
    data = _read(path)
    if read_as is None or hashlib.sha256(data).hexdigest() != write.written["written_sha256"]:
        raise InspectorError(
            f"{shown_name(path)}: changed since the fix --in-place of {write.applied_at} wrote it (its agent may have "
            f"added turns), which undo would lose: nothing was changed; its copy from before that fix is "
            f"{shown_name(backup)}"
        )
    restored = _read(backup)
    if restored == data:  # (the copy taken before that fix was moved away, and another took its name)
        raise InspectorError(
            f"{shown_name(path)}: {shown_name(backup)}, named as its copy from before the fix --in-place of "
            f"{write.applied_at}, holds the file as it is now: that copy is gone, and nothing was changed"
        )
    kept = save_backup(path, lambda target: _write(target, data))
    entry = undo_line(path, write, kept, written_sha256=hashlib.sha256(restored).hexdigest())
    try:
        land_file_and_audit(
            path, restored, audit_so_far(audit_path_for(path)) + entry, True, lambda: check_unchanged(path, read_as)
        )
    except InspectorError:
        kept.unlink(missing_ok=True)  # (a copy of the file as it still is)
        raise
    return Undone(write.applied_at, write.fixes, backup, kept, audit_path_for(path))


def _backup_named(path: Path, write: RecordedWrite) -> Path:
    """The backup `write` saved: one of `path`'s own backups, by the name the audit gives."""
    backup = next((found for found in backups_of(path) if found.name == write.backup), None)
    if backup is None or not backup.is_file():
        raise InspectorError(
            f"{shown_name(path)}: its copy from before the fix --in-place of {write.applied_at}, "
            f"{shown_name(path.with_name(write.backup))}, is not there: nothing was changed"
        )
    return backup


def _write(target: Path, data: bytes) -> None:
    target.write_bytes(data)


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise InspectorError(f"{shown_name(path)}: cannot read ({exc.strerror}); nothing was changed") from None


def _nothing_recorded(path: Path) -> str:
    """The line for a file whose audit records no write in place left to undo, naming the copies
    `fix --in-place` kept of it (an older version recorded none) for the person to put one back."""
    backups = backups_of(path)
    if not backups:
        kept = (
            "a session file fixed in place keeps its copy from before the fix as FILE.bak, and none is beside this one"
        )
    else:
        first, last = shown_name(backups[0]), shown_name(backups[-1])
        before = (
            f"before fix --in-place is {first}"
            if len(backups) == 1
            else f"before the first fix --in-place is {first}, before the last {last}"
        )
        one = "it" if len(backups) == 1 else "one"
        kept = f"its copy from {before} (copy {one} back over the file to undo; turns added since are not in it)"
    return f"{shown_name(path)}: no fix --in-place of it is recorded to undo: {kept}"
