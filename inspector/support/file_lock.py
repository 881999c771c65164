"""An exclusive lock between processes, held on a lock file for as long as a few reads and writes
take (`fcntl.flock`: the system drops it when its holder exits, even killed, so a crash never
leaves a file locked). Waiting for it is bounded: a holder that is stuck (a process suspended with
ctrl+z in the middle of a save) makes the waiter fail with one line, never hang.

Where `fcntl` does not exist (Windows), nothing is locked: saves from two processes are then
merged without it, at a small risk of one of two simultaneous saves being lost.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from inspector.errors import InspectorError
from inspector.support.safe_text import shown_name

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]  # (the module, or None where there is none: no locking there)

WAIT_SECONDS = 10.0
_POLL_SECONDS = 0.02


@contextmanager
def exclusive_lock(lock_path: Path, what: str) -> Iterator[None]:
    """Hold the lock on `lock_path` (made if missing) while the block runs. When another process
    holds it for longer than `WAIT_SECONDS`, or the lock file cannot be made, an `InspectorError`
    saying that `what` could not be done."""
    if fcntl is None:
        yield
        return
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as exc:
        raise InspectorError(f"{shown_name(lock_path)}: cannot make the lock file to {what} ({exc.strerror})") from None
    try:
        _take(fd, lock_path, what, WAIT_SECONDS)
        yield
    finally:
        os.close(fd)  # drops the lock


def _take(fd: int, lock_path: Path, what: str, wait: float) -> None:
    """Take the lock on `fd`, polling until `wait` seconds have passed."""
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise InspectorError(
                    f"{shown_name(lock_path)}: held by another process for {wait:g} s, so could not {what} "
                    "(is another inspector suspended?)"
                ) from None
            time.sleep(_POLL_SECONDS)
