"""What a session file was when it was read (its device, inode, size and modification time), to
tell, just before a repair replaces it in place, whether anything wrote it since.

An agent appends to its session while it runs, and some tools save the whole file after each
turn: a repair built from what was read and renamed over the file would drop what was written
meanwhile. So a file written in place is replaced only while it is still exactly as read; else
the write is refused in one line and the file is left as it is. (What is written between the
last look and the rename itself, microseconds later, is not seen: no agent takes a lock to
write its session.)
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from inspector.errors import InspectorError
from inspector.support.safe_text import shown_name


@dataclass(frozen=True)
class FileState:
    """A file as read: which file (device and inode), how many of its bytes, and when it was
    last written (nanoseconds)."""

    device: int
    inode: int
    size: int
    modified_ns: int

    @classmethod
    def of(cls, status: os.stat_result, size: int | None = None) -> FileState:
        """The state `status` gives, with `size` the bytes read when fewer than the file holds
        (a file being written, read up to its last whole line)."""
        return cls(status.st_dev, status.st_ino, status.st_size if size is None else size, status.st_mtime_ns)


def state_of(path: Path) -> FileState | None:
    """The state of the file at `path` now; None when it cannot be looked at."""
    try:
        return FileState.of(os.stat(path))
    except OSError:
        return None


class ChangedSinceRead(InspectorError):
    """The file to be replaced in place was written since it was read: nothing is written."""


def check_unchanged(path: Path, read_as: FileState) -> None:
    """Refuse in one line (`ChangedSinceRead`) when the file at `path` is no longer as `read_as`
    says it was read: written since, replaced, or holding bytes the read left out."""
    now = state_of(path)
    if now == read_as:
        return
    if now is not None and (now.device, now.inode) == (read_as.device, read_as.inode) and now.size > read_as.size:
        grown = now.size - read_as.size
        what = (
            f"it grew by {grown:,} byte{'s' if grown != 1 else ''} since it was read (its agent is still writing it?)"
        )
    else:
        what = "it was written or replaced since it was read"
    raise ChangedSinceRead(
        f"{shown_name(path)}: {what}: nothing was written in its place, so that nothing of it is lost; "
        "run the fix again once its agent is idle"
    )
