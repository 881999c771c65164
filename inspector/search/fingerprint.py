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
    with open(path, "rb") as file:
        status = os.fstat(file.fileno())
        digest = hashlib.blake2b(file.read(ENDS), digest_size=16)
        if status.st_size > ENDS:
            file.seek(max(ENDS, status.st_size - ENDS))
            digest.update(file.read(ENDS))
    return Fingerprint(status.st_size, status.st_mtime_ns, digest.hexdigest())
