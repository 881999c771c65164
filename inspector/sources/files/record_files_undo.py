"""`inspector undo SESSION_FILE` for a session of OpenCode's older storage: its files put back as
they were before its last `fix --in-place` (or the app's export over it).

The storage's audit (`STORAGE.audit.ndjson`, shared by its sessions) records each write in place
(`record_files_write`): the folder its backup went to (`STORAGE.bak`, `STORAGE.bak.N`), the
session's file, and the SHA-256 of every file it wrote (None: one it removed). Those of one
session, read in order with the undos recorded since, are a stack: the last write is undone first.

A write is undone only while every file it wrote is still as it wrote it: OpenCode continuing the
session adds and changes files, which putting the backup back would lose. Under the storage's lock
(`STORAGE.lock`), the session's files as that write left them are first copied to one more
`STORAGE.bak.N`; then each file it wrote is put back from its backup (a file it added, which the
backup does not hold, is removed), all or none, the audit's undo entry landing first, and only
while the files are still as checked.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from inspector.errors import InspectorError
from inspector.sources.files.file_audit import IN_PLACE, audit_entries, audit_path_for, audit_so_far
from inspector.sources.files.opencode_storage import storage_folder
from inspector.sources.files.record_files_write import land_in_place, lock_path_for, save_session_copy
from inspector.support.file_lock import exclusive_lock
from inspector.support.safe_text import shown_name, utf8_bytes

UNDO = "undo"  # the kind of the audit entry an undo adds


@dataclass(frozen=True)
class StorageWrite:
    """One write in place of a storage session, as its audit records it."""

    backup: str  # the folder beside the storage its files went to first
    files: dict[str, str | None]  # each file it wrote (its path in the storage) -> its SHA-256 (None: removed)
    applied_at: str
    fixes: int


@dataclass(frozen=True)
class StorageUndone:
    """What `undo_last_storage_write` did: the write undone, the backup its files came from, the
    folder holding the session's files as that write left them, and the audit."""

    write: StorageWrite
    restored: Path
    kept: Path
    audit: Path


def storage_writes_to_undo(storage: Path, session: str) -> tuple[list[StorageWrite], bool]:
    """The writes in place of the session whose file is `session` (its path in `storage`) the
    storage's audit records and no undo has undone, first to last, and whether it records any."""
    stack: list[StorageWrite] = []
    recorded = False
    for _, entry in audit_entries(storage):
        written = entry.get(IN_PLACE)
        if entry.get("kind") == UNDO:
            if (
                entry.get("session") == session
                and stack
                and _names(stack[-1])
                == (
                    entry.get("restored"),
                    entry.get("undid"),
                )
            ):
                stack.pop()
            continue
        if not isinstance(written, dict) or written.get("session") != session:
            continue
        backup, files = written.get("backup"), written.get("files")
        if not isinstance(backup, str) or not isinstance(files, dict):
            continue
        recorded = True
        applied_at = str(entry.get("applied_at"))
        if stack and _names(stack[-1]) == (backup, applied_at):  # (another entry of the same write)
            stack[-1] = StorageWrite(backup, stack[-1].files, applied_at, stack[-1].fixes + 1)
        else:
            stack.append(StorageWrite(backup, files, applied_at, 1))
    return stack, recorded


def undo_last_storage_write(session_file: Path) -> StorageUndone:
    """Put the storage session `session_file` back as it was before its last write in place not
    undone yet, recording the undo in the storage's audit; one `InspectorError` line, and nothing
    changed, when it cannot be."""
    storage = storage_folder(session_file)
    session = session_file.relative_to(storage).as_posix()
    with exclusive_lock(lock_path_for(storage), "undo a fix of the storage"):
        writes, recorded = storage_writes_to_undo(storage, session)
        if not writes:
            raise InspectorError(
                f"{shown_name(session_file)}: every fix --in-place of this session its storage's audit records is "
                "undone already: nothing was changed"
                if recorded
                else f"{shown_name(session_file)}: no fix --in-place of this session is recorded in "
                f"{shown_name(audit_path_for(storage))} to undo: nothing was changed"
            )
        write = writes[-1]
        backup = storage.with_name(write.backup)
        restored = _restored_files(storage, backup, write)
        _check_as_written(storage, write, backup)
        kept = save_session_copy(session_file)
        audit = audit_path_for(storage)
        entry = _undo_entry(session_file, session, write, kept)
        try:
            land_in_place(
                storage, restored, audit, audit_so_far(audit) + entry, lambda: _check_as_written(storage, write, backup)
            )
        except BaseException:
            shutil.rmtree(kept, ignore_errors=True)  # (a copy of the files as they still are)
            raise
    return StorageUndone(write, backup, kept, audit)


def _restored_files(storage: Path, backup: Path, write: StorageWrite) -> dict[str, bytes | None]:
    """Each file `write` wrote as its backup holds it (None: not there before the write, to remove)."""
    if not backup.is_dir():
        raise InspectorError(
            f"{shown_name(storage)}: the copy of the session's files from before the fix --in-place of "
            f"{write.applied_at}, {shown_name(backup)}, is not there: nothing was changed"
        )
    restored: dict[str, bytes | None] = {}
    for name in write.files:
        copy = _inside(backup, name)
        try:
            restored[name] = copy.read_bytes()
        except FileNotFoundError:
            if write.files[name] is None:  # removed by the write, and not in its backup either
                raise InspectorError(
                    f"{shown_name(backup)}: does not hold {name}, which the fix --in-place of {write.applied_at} "
                    "removed: nothing was changed"
                ) from None
            restored[name] = None
        except OSError as exc:
            raise InspectorError(f"{shown_name(copy)}: cannot read ({exc.strerror}); nothing was changed") from None
    return restored


def _check_as_written(storage: Path, write: StorageWrite, backup: Path) -> None:
    """Refuse (one `InspectorError` line) when a file `write` wrote is no longer as it wrote it."""
    for name, digest in write.files.items():
        path = _inside(storage, name)
        try:
            now = hashlib.sha256(path.read_bytes()).hexdigest()
        except FileNotFoundError:
            now = None
        except OSError as exc:
            raise InspectorError(f"{shown_name(path)}: cannot read ({exc.strerror}); nothing was changed") from None
        if now != digest:
            raise InspectorError(
                f"{shown_name(path)}: changed since the fix --in-place of {write.applied_at} wrote it (OpenCode may "
                "have gone on with the session), which undo would lose: nothing was changed; the session's files "
                f"from before that fix are in {shown_name(backup)}"
            )


def _inside(folder: Path, name: str) -> Path:
    """The file `name` (a path as the audit records it) inside `folder`; an audit naming one
    outside it (`..`, an absolute path) is refused."""
    path = folder / name
    if Path(name).is_absolute() or ".." in Path(name).parts:
        raise InspectorError(f"{shown_name(folder)}: the audit names a file outside it, {name}: nothing was changed")
    return path


def _undo_entry(session_file: Path, session: str, write: StorageWrite, kept: Path) -> bytes:
    """The audit line recording the undo of `write`."""
    entry: dict[str, Any] = {
        "kind": UNDO,
        "undone_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "source": str(session_file),
        "session": session,
        "undid": write.applied_at,
        "fixes": write.fixes,
        "restored": write.backup,
        "kept": kept.name,
    }
    return utf8_bytes(json.dumps(entry, ensure_ascii=False) + "\n")


def _names(write: StorageWrite) -> tuple[str, str]:
    """What names a write across the audit's entries: its backup and when it was applied."""
    return write.backup, write.applied_at
