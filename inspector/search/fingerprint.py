"""What tells a session file changed since it was indexed: its size, its modification time and a
digest of its first and last `ENDS` bytes. Reading the two ends is cheap whatever the file's size,
and catches a file rewritten within the same second at the same size at either end."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import NamedTuple

ENDS = 4096  # bytes of each end of a file in its digest


class Fingerprint(NamedTuple):
    """A file's size in bytes, modification time in nanoseconds, and the digest of its ends."""

    size: int
    mtime_ns: int
    digest: str


def fingerprint(path: Path) -> Fingerprint:
    """The fingerprint of the file at `path` (an `OSError` when it cannot be read)."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        status = os.fstat(descriptor)
        return Fingerprint(status.st_size, status.st_mtime_ns, _digest(descriptor, status.st_size))
    finally:
        os.close(descriptor)


def unchanged(path: Path, stored: Fingerprint) -> bool:
    """Whether the file at `path` still has the fingerprint `stored`; its ends are read only when
    its size and modification time are still the same (an `OSError` when it cannot be read)."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        status = os.fstat(descriptor)
        if (status.st_size, status.st_mtime_ns) != (stored.size, stored.mtime_ns):
            return False
        return _digest(descriptor, status.st_size) == stored.digest
    finally:
        os.close(descriptor)


def _digest(descriptor: int, size: int) -> str:
    """The digest of the first and last `ENDS` bytes of the open file `descriptor`, `size` bytes long."""
    digest = hashlib.blake2b(os.pread(descriptor, ENDS, 0), digest_size=16)
    if size > ENDS:
        digest.update(os.pread(descriptor, ENDS, max(ENDS, size - ENDS)))
    return digest.hexdigest()
