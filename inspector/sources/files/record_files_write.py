"""A repaired session written back to a storage that keeps it as one JSON file per record
(OpenCode's older storage: `opencode_storage`): every file of a write lands, or none does.

The format names the record files a repair changes or adds, with their text (`write_records`);
a secret a repair masked is masked in every file of the session that holds it. Every other file
stays as it was, byte for byte.

- As a copy (`fix -o OUT`): OUT is a new storage folder holding the session's files in the
  storage's layout (`session/<project>/ses_….json`, `message/…`, `part/…`), the untouched ones
  copied as they are. It is filled as a hidden temporary folder beside OUT, each file flushed to
  disk, and renamed to OUT once the audit `OUT.audit.ndjson` has landed beside it (put back as
  it was if the folder cannot land). OUT must not exist yet.
- In place (`--in-place`): a lock beside the storage folder (`STORAGE.lock`) is taken first and
  held until the write ends; the session's files are checked to be still as they were read
  (`record_files_state`: none written, added or removed by OpenCode since), else the write is
  refused in one line, here and again right before the first rename, leaving no backup, audit or
  temporary file behind. Then the backup: a copy of every file of the session, in the
  storage's layout, as `STORAGE.bak/` beside the storage folder (`STORAGE.bak.N` when that exists;
  never inside it, where OpenCode would list its files), filled under a hidden temporary name and
  renamed once complete. Each file to write is then written under a hidden temporary name in its
  own folder and flushed; the audit `STORAGE.audit.ndjson` (its earlier entries kept) lands, then
  each file is renamed into place, its previous version kept aside under a second name. If any
  step fails, every file renamed is put back (a new one removed, with a folder made for it), the
  previous audit too, and the failure is one `InspectorError` line: the storage is as it was. A
  second write from the same read (the app's export over its input, again) puts back as read what
  the first changed and removes what it added, unless it writes them itself (`record_files_state`).
  Each audit entry of a write in place records it (`in_place`: the backup's folder, the session's
  file, the SHA-256 of each file written), which `inspector undo` reads (`record_files_undo`).
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path

from inspector.errors import InspectorError
from inspector.model import AppliedFix, Session
from inspector.sources.base import AuditPlace, AuditRecord, SessionWriter, WrittenFix
from inspector.sources.files.file_audit import IN_PLACE, audit_so_far, landed_beside
from inspector.sources.files.opencode_storage import record_files, storage_folder
from inspector.sources.files.record_files_state import RecordFilesAsRead, Written
from inspector.support.atomic_files import (
    file_mode,
    kept_aside,
    land,
    staged_bytes,
    sync_directory,
    sync_file,
)
from inspector.support.file_lock import exclusive_lock
from inspector.support.safe_text import shown_name, utf8_bytes
from inspector.support.secret_patterns import masked_everywhere

RecordTexts = Callable[[Session], dict[str, str]]  # a repaired session -> its changed record files' texts


def lock_path_for(storage: Path) -> Path:
    """The lock an in-place write of `storage` holds: `STORAGE.lock` beside the folder."""
    return storage.with_name(storage.name + ".lock")


class RecordFilesWriter(SessionWriter):
    """Collects the record files a repair changes, then lands them on `commit` (see the module)."""

    def __init__(
        self, read_as: RecordFilesAsRead, records: RecordTexts, out: Path, audit_path: Path, in_place: bool
    ) -> None:
        self._read_as = read_as
        self._session_file = read_as.session_file
        self._storage = storage_folder(self._session_file)
        self._records = records
        self._out = out
        self._audit_path = audit_path
        self._in_place = in_place
        self._texts: dict[str, str] = {}
        self._masks: list[tuple[str, str]] = []
        self._held = ExitStack()
        self._backup: Path | None = None

    def backup(self) -> Path:
        """Take the storage's lock and, once the session's files are found still as read, copy
        them to `STORAGE.bak/`; its path."""
        self._held.enter_context(exclusive_lock(lock_path_for(self._storage), "write the storage"))
        self._read_as.check()
        self._backup = save_session_copy(self._session_file)
        return self._backup

    def write(self, session: Session, fixes: Sequence[AppliedFix]) -> list[WrittenFix]:
        """Keep the record files the repaired session changes."""
        self._texts.update(self._records(session))
        self._masks.extend(session.masked)
        return [WrittenFix(fix, session.session_id) for fix in fixes]

    def commit(self, audit: Sequence[AuditRecord]) -> AuditPlace:
        """Land the files and the audit together (see the module's docstring)."""
        entries = [record.entry for record in audit]
        try:
            if self._in_place:
                written = self._changed()
                before = {name: _bytes_of(self._storage / name) for name in written}
                if self._backup is not None:
                    entries = [{**entry, IN_PLACE: self._in_place_record(written)} for entry in entries]
                land_in_place(
                    self._storage, written, self._audit_path, audit_so_far(self._audit_path) + _lines(entries),
                    self._read_as.check,
                )  # fmt: skip
                self._read_as.wrote(written, before)
            else:
                if os.path.lexists(self._out):
                    raise InspectorError(
                        f"{shown_name(self._out)}: exists already (a storage is copied into a new folder); "
                        "nothing was written"
                    )
                with landed_beside(self._audit_path, _lines(entries)):
                    land_session_copy(self._session_file, self._out, self._changed())
        except OSError as exc:
            where = self._storage if self._in_place else self._out
            raise InspectorError(
                f"{shown_name(where)}: cannot write ({exc.strerror or exc}); nothing was written"
            ) from None
        finally:
            self._held.close()
        return AuditPlace(self._audit_path, shown_name(self._audit_path))

    def discard(self) -> None:
        """Nothing was written before `commit`: let go of the lock."""
        self._held.close()

    def _changed(self) -> Written:
        """Every file to write, by its path in the storage (None: one to remove): those repaired,
        those holding a secret a repair masked, and those an earlier in-place write from the same
        read changed, put back as read (`RecordFilesAsRead.replaced`)."""
        texts = dict(self._texts)
        if self._masks:
            for path in record_files(self._session_file):
                name = path.relative_to(self._storage).as_posix()
                text = texts[name] if name in texts else self._read_as.text_as_read(path)
                masked = None if text is None else masked_everywhere(text, self._masks)
                if masked is not None and (name in texts or masked != text):
                    texts[name] = masked
        return {**self._read_as.replaced, **{name: utf8_bytes(text) for name, text in texts.items()}}

    def _in_place_record(self, written: Written) -> dict[str, object]:
        """What the audit records of this write in place, for `inspector undo` (`record_files_undo`):
        the backup saved before it, the session's file, and the SHA-256 of each file it writes
        (None: one it removes)."""
        from hashlib import sha256

        assert self._backup is not None
        files = {name: None if data is None else sha256(data).hexdigest() for name, data in written.items()}
        session = self._session_file.relative_to(self._storage).as_posix()
        return {"backup": self._backup.name, "session": session, "files": files}


def save_session_copy(session_file: Path) -> Path:
    """Copy every file of the storage session `session_file` as it is now to a new folder beside
    the storage, `STORAGE.bak` (`STORAGE.bak.N` when that exists); its path."""
    storage = storage_folder(session_file)
    number = 0
    while True:
        target = storage.with_name(f"{storage.name}.bak" + (f".{number}" if number else ""))
        number += 1
        if not os.path.lexists(target):
            break
    try:
        land_session_copy(session_file, target, {})
    except OSError as exc:
        raise InspectorError(
            f"{shown_name(target)}: cannot write the backup ({exc.strerror or exc}); nothing was changed"
        ) from None
    return target


def land_session_copy(session_file: Path, target: Path, written: Written) -> None:
    """Fill a hidden folder beside `target` with the files of the storage session `session_file`
    (those of `written` with their new bytes, none of those it removes), each flushed to disk, and
    rename it to `target`, which must not exist."""
    storage = storage_folder(session_file)
    folder = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent))
    try:
        names = {path.relative_to(storage).as_posix(): path for path in record_files(session_file)}
        removed = {name for name, data in written.items() if data is None}
        kept = [name for name in dict.fromkeys([*names, *written]) if name not in removed]
        for name in kept:
            copy = folder / name
            copy.parent.mkdir(parents=True, exist_ok=True)
            data = written.get(name)
            if data is not None:
                copy.write_bytes(data)
            else:
                shutil.copy2(names[name], copy)
            sync_file(copy)
        for parent in sorted({(folder / name).parent for name in kept}):
            sync_directory(parent)
        if os.path.lexists(target):
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(target))
        os.rename(folder, target)
        sync_directory(target.parent)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def land_in_place(
    storage: Path, written: Written, audit_path: Path, audit_bytes: bytes, check: Callable[[], None]
) -> None:
    """Stage every file of `written` in its folder of `storage`, land the audit, then, once `check`
    does not refuse (raise), rename each into place (remove those `written` removes); on any
    failure put back every file renamed or removed, and the previous audit (see the module's
    docstring)."""
    staged: list[tuple[Path | None, Path]] = []
    made: list[Path] = []
    try:
        for name, data in written.items():
            path = storage / name
            if data is None:
                staged.append((None, path))
                continue
            if not path.parent.is_dir():
                path.parent.mkdir()
                made.append(path.parent)
            staged.append((staged_bytes(path, data, file_mode(path)), path))
        with landed_beside(audit_path, audit_bytes):
            check()
            _rename_all(staged)
    except BaseException:
        for folder in made:
            shutil.rmtree(folder, ignore_errors=True)
        raise
    finally:
        for temporary, _ in staged:
            if temporary is not None:
                temporary.unlink(missing_ok=True)


def _lines(entries: list[dict[str, object]]) -> bytes:
    """Audit entries as the audit's lines."""
    return utf8_bytes("".join(json.dumps(entry, ensure_ascii=False) + "\n" for entry in entries))


def _rename_all(staged: list[tuple[Path | None, Path]]) -> None:
    """Rename each staged file to its path (remove the file where none is staged), the previous
    file kept aside; on a failure, put back every file renamed or removed so far (remove a new
    one) and raise."""
    landed: list[tuple[Path, Path | None]] = []
    try:
        for temporary, path in staged:
            aside = kept_aside(path)
            landed.append((path, aside))
            if temporary is not None:
                land(temporary, path)
            else:
                path.unlink(missing_ok=True)
                sync_directory(path.parent)
    except BaseException:
        for path, aside in reversed(landed):
            if aside is not None:
                os.replace(aside, path)
            else:
                path.unlink(missing_ok=True)
            sync_directory(path.parent)
        raise
    finally:
        for _, aside in landed:
            if aside is not None:
                aside.unlink(missing_ok=True)


def _bytes_of(path: Path) -> bytes | None:
    """The bytes of the file at `path`, None when there is none."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
