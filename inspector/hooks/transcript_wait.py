"""Waiting for the chat file an agent writes while its hook already runs.

GitHub Copilot CLI starts its `Stop` hook and writes the session's events to `events.jsonl` a
moment later: at the end of a session's first reply the file may not exist yet. Each call of the
hook is recorded there as a `hook.start` event whose input names the call's time in milliseconds,
the time the hook's own input gives (`timestamp`, as an ISO 8601 time); the reply's events come
before it. So the hook waits, a few seconds at most, until the file's last part holds that event;
when the input names no time it can read, until the file exists.
"""

from __future__ import annotations

import os
import time
from typing import Any

WAIT_SECONDS = 3.0  # the longest wait: then the hook reads what is there
POLL_SECONDS = 0.01
TAIL_BYTES = 2**16  # the end of the file looked at for the call's event


def wait_for_call(path: str, timestamp: Any) -> None:
    """Return once `path` holds the `hook.start` event of the call made at `timestamp` (the hook
    input's), or exists when that time cannot be read, or after `WAIT_SECONDS`."""
    marker = call_marker(timestamp)
    deadline = time.monotonic() + WAIT_SECONDS
    while not _holds(path, marker) and time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)


def call_marker(timestamp: Any) -> bytes | None:
    """What the `hook.start` event of the call at `timestamp` (an ISO 8601 time) holds: its
    `"timestamp":<milliseconds>`; None when it is not such a time."""
    if not isinstance(timestamp, str):
        return None
    from datetime import datetime

    try:
        moment = datetime.fromisoformat(timestamp.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        return None
    milliseconds = round(moment.timestamp() * 1000)
    return b'"timestamp":%d' % milliseconds


def _holds(path: str, marker: bytes | None) -> bool:
    """Whether the file at `path` exists and, given a `marker`, holds it in its last `TAIL_BYTES`."""
    try:
        with open(path, "rb") as file:
            if marker is None:
                return True
            size = os.fstat(file.fileno()).st_size
            file.seek(max(0, size - TAIL_BYTES))
            return marker in file.read()
    except FileNotFoundError:
        return False
