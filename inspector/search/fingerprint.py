"""What tells a session file changed since it was indexed: its size, its modification time and a
digest of its first and last `ENDS` bytes. Reading the two ends is cheap whatever the file's size,
and catches a file rewritten within the same second at the same size at either end. An SQLite
database in WAL mode takes its new rows into its `-wal` file first, leaving the database's own
file as it was: the digest of a database also covers its `-wal` file's size and modification time.
A session read with other files (`companion_files`: OpenCode's older storage, an OpenHands
conversation) is as it was only when they are: the digest covers each one's name, size and
modification time.

A file that only grew (`grown`: longer, its bytes up to the size indexed as they were, ending a
line there, and no database nor companion files) is a JSON Lines session an agent appended to."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path
from typing import NamedTuple

from inspector.errors import InspectorError
from inspector.sources.files.opencode_storage import is_storage_session, record_files
from inspector.sources.files.openhands_conversation import EVENTS, is_conversation_state

ENDS = 4096  # bytes of each end of a file in its digest
SQLITE_HEADER = b"SQLite format 3\x00"  # how an SQLite database starts


class Fingerprint(NamedTuple):
    """A file's size in bytes, modification time in nanoseconds, and the digest of its ends."""

    size: int
    mtime_ns: int
    digest: str


def fingerprint(path: Path) -> Fingerprint:
    """The fingerprint of the file at `path` (an `OSError` when it cannot be read, or is no
    regular file: a pipe is never opened, it would give its bytes to no reader)."""
    descriptor = _open_regular(path)
    try:
        status = os.fstat(descriptor)
        return Fingerprint(status.st_size, status.st_mtime_ns, _digest(path, descriptor, status.st_size))
    finally:
        os.close(descriptor)


def unchanged(path: Path, stored: Fingerprint) -> bool:
    """Whether the file at `path` still has the fingerprint `stored`; its ends are read only when
    its size and modification time are still the same (an `OSError` when it cannot be read, or
    is no regular file)."""
    descriptor = _open_regular(path)
    try:
        status = os.fstat(descriptor)
        if (status.st_size, status.st_mtime_ns) != (stored.size, stored.mtime_ns):
            return False
        return _digest(path, descriptor, status.st_size) == stored.digest
    finally:
        os.close(descriptor)


def grown(path: Path, stored: Fingerprint) -> bool:
    """Whether the file at `path` is the one of fingerprint `stored` with lines appended: longer,
    the digest of its first `stored.size` bytes still `stored.digest`, a line ending there, and
    no database nor companion files (an `OSError` when it cannot be read)."""
    descriptor = _open_regular(path)
    try:
        size = os.fstat(descriptor).st_size
        if size <= stored.size or stored.size == 0 or os.pread(descriptor, 1, stored.size - 1) != b"\n":
            return False
        if os.pread(descriptor, len(SQLITE_HEADER), 0) == SQLITE_HEADER or companion_files(path):
            return False
        return _digest(path, descriptor, stored.size) == stored.digest
    finally:
        os.close(descriptor)


def _open_regular(path: Path) -> int:
    """The file at `path` opened for reading, when it is a regular file (else an `OSError`)."""
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise OSError(f"{path}: not a regular file")
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # replaced meanwhile: never waits
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise OSError(f"{path}: not a regular file")
    return descriptor


def _digest(path: Path, descriptor: int, size: int) -> str:
    """The digest of the first and last `ENDS` bytes of the open file `descriptor`'s first `size`
    bytes (`path`), and of its `-wal` file's size and modification time when it is an SQLite database."""
    head = os.pread(descriptor, min(ENDS, size), 0)
    digest = hashlib.blake2b(head, digest_size=16)
    if size > ENDS:
        digest.update(os.pread(descriptor, ENDS, max(ENDS, size - ENDS)))
    if head.startswith(SQLITE_HEADER):
        try:
            wal = os.stat(f"{path}-wal")
            digest.update(f"wal {wal.st_size} {wal.st_mtime_ns}".encode())
        except OSError:  # none: every row is in the database's own file
            pass
    for companion in companion_files(path):
        status = os.stat(companion)
        digest.update(f"{companion}\0{status.st_size}\0{status.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def companion_files(path: Path) -> list[Path]:
    """The other files the session at `path` is read with, in order (an `OSError` when they
    cannot be listed): an OpenCode storage session's messages and parts, an OpenHands
    conversation's events; none for any other file."""
    try:
        if is_storage_session(path):
            return record_files(path)[1:]
        if is_conversation_state(path):
            with os.scandir(path.parent / EVENTS) as entries:
                return sorted(Path(entry.path) for entry in entries if entry.is_file())
    except InspectorError as error:
        raise OSError(str(error)) from None
    return []
