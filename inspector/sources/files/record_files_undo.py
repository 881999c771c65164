"""`inspector undo SESSION_FILE` for a session of OpenCode's older storage: its files put back as
they were before its last `fix --in-place` (or the app's export over it).

The storage's audit (`STORAGE.audit.ndjson`, shared by its sessions) records each write in place
(`record_files_write`): the folder its backup went to (`STORAGE.bak`, `STORAGE.bak.N`), the
session's file, and the SHA-256 of every file it wrote (None: one it removed). Those of one
session, with the undos recorded since, are a stack (`in_place_writes`): the last is undone first.

A write is undone only while every file it wrote is still as it wrote it: OpenCode continuing the
session adds and changes files, which putting the backup back would lose. Under the storage's lock
(`STORAGE.lock`), the session's files as that write left them are first copied to one more
`STORAGE.bak.N`; then each file it wrote is put back from its backup (a file it added, which the
backup does not hold, is removed), all or none, the audit's undo entry landing first, and only
while the files are still as checked.
"""

from __future__ import annotations

import hashlib
import shlex
import shutil
from pathlib import Path

from inspector.errors import InspectorError
from inspector.sources.files.file_audit import AUDIT_SUFFIX, IN_PLACE, audit_entries, audit_path_for, audit_so_far
from inspector.sources.files.in_place_writes import RecordedWrite, Undone, undo_line, writes_not_undone
from inspector.sources.files.opencode_storage import MESSAGE_NAME, PART_NAME, SESSION_NAME, storage_folder
from inspector.sources.files.record_files_write import land_in_place, lock_path_for, save_session_copy
from inspector.support.file_lock import exclusive_lock
from inspector.support.safe_text import neutralise, shown_name


def storage_writes_to_undo(storage: Path, session: str) -> tuple[list[RecordedWrite], bool]:
    """The writes in place of the session whose file is `session` (its path in `storage`) the
    storage's audit records and no undo has undone, first to last, and whether it records any."""
    # a write's record names the session and holds its files by name; an undo's entry names the session
    return writes_not_undone(
        storage, lambda record: record.get("session") == session and isinstance(record.get("files", {}), dict)
    )


def session_to_name(path: Path) -> str | None:
    """When `path` is a storage folder of OpenCode's (or its audit), the line saying that undo
    takes one of its sessions' files, naming the one fixed in place last and not undone yet (or
    that none is); when it is a message's or a part's file, the line naming its session's file;
    None when it is none of these."""
    record = _session_of_record(path)
    if record is not None:
        kind = "message" if MESSAGE_NAME.fullmatch(path.name) else "part"
        command = neutralise(shlex.quote(str(record)))
        return f"{shown_name(path)}: a {kind} of an OpenCode storage session; undo takes the session's file: inspector undo {command}"
    storage = path.with_name(path.name.removesuffix(AUDIT_SUFFIX)) if path.name.endswith(AUDIT_SUFFIX) else path
    if not ((storage / "session").is_dir() and (storage / "message").is_dir()):
        return None
    sessions = {
        written["session"]
        for _, entry in audit_entries(storage)
        if isinstance(written := entry.get(IN_PLACE), dict) and isinstance(written.get("session"), str)
    }
    last_writes = [
        (writes[-1].applied_at, name) for name in sessions if (writes := storage_writes_to_undo(storage, name)[0])
    ]
    said = f"{shown_name(path)}: {'the audit of ' if storage != path else ''}an OpenCode storage folder"
    if not last_writes:
        left = (
            "every fix --in-place of its sessions is undone already"
            if sessions
            else "no fix --in-place of its sessions is recorded"
        )
        return f"{said}: {left}, nothing was changed"
    applied_at, session = max(last_writes)
    command = neutralise(shlex.quote(str(_inside(storage, session))))
    return f"{said}: undo takes one of its sessions' files; to undo the last fix --in-place ({applied_at}): inspector undo {command}"


def _session_of_record(path: Path) -> Path | None:
    """The session file a storage message's file (`message/<session id>/msg_….json`) or part's
    file (`part/<message id>/prt_….json`) belongs to, when there is one."""
    folder = path.parent.name  # (an id: a name no glob reads otherwise)
    if (
        MESSAGE_NAME.fullmatch(path.name)
        and path.parent.parent.name == "message"
        and SESSION_NAME.fullmatch(f"{folder}.json")
    ):
        storage, session_id = path.parent.parent.parent, folder
    elif (
        PART_NAME.fullmatch(path.name)
        and path.parent.parent.name == "part"
        and MESSAGE_NAME.fullmatch(f"{folder}.json")
    ):
        storage = path.parent.parent.parent
        message = next((storage / "message").glob(f"*/{path.parent.name}.json"), None)
        if message is None:
            return None
        session_id = message.parent.name
    else:
        return None
    return next((storage / "session").glob(f"*/{session_id}.json"), None)


def undo_last_storage_write(session_file: Path) -> Undone:
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
        entry = undo_line(session_file, write, kept, session=session)
        try:
            land_in_place(
                storage, restored, audit, audit_so_far(audit) + entry, lambda: _check_as_written(storage, write, backup)
            )
        except BaseException:
            shutil.rmtree(kept, ignore_errors=True)  # (a copy of the files as they still are)
            raise
    return Undone(write.applied_at, write.fixes, backup, kept, audit)


def _restored_files(storage: Path, backup: Path, write: RecordedWrite) -> dict[str, bytes | None]:
    """Each file `write` wrote as its backup holds it (None: not there before the write, to remove)."""
    if not backup.is_dir():
        raise InspectorError(
            f"{shown_name(storage)}: the copy of the session's files from before the fix --in-place of "
            f"{write.applied_at}, {shown_name(backup)}, is not there: nothing was changed"
        )
    restored: dict[str, bytes | None] = {}
    files = write.written["files"]
    for name in files:
        copy = _inside(backup, name)
        try:
            restored[name] = copy.read_bytes()
        except FileNotFoundError:
            if files[name] is None:  # removed by the write, and not in its backup either
                raise InspectorError(
                    f"{shown_name(backup)}: does not hold {name}, which the fix --in-place of {write.applied_at} "
                    "removed: nothing was changed"
                ) from None
            restored[name] = None
        except OSError as exc:
            raise InspectorError(f"{shown_name(copy)}: cannot read ({exc.strerror}); nothing was changed") from None
    return restored


def _check_as_written(storage: Path, write: RecordedWrite, backup: Path) -> None:
    """Refuse (one `InspectorError` line) when a file `write` wrote is no longer as it wrote it."""
    for name, digest in write.written["files"].items():
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
