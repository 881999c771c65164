"""Waiting for the chat file an agent writes while its hook already runs.

GitHub Copilot CLI starts its `Stop` hook and writes the session's events to `events.jsonl` a
moment later: at the end of a session's first reply the file may not exist yet. Each call of the
hook is recorded there as a `hook.start` event whose input names the call's time in milliseconds,
the time the hook's own input gives (`timestamp`, as an ISO 8601 time); the reply's events come
before it. So the hook waits, a few seconds at most, until the file's last part holds that event;
when the input names no time it can read, until the file exists.

Qwen Code may start its `Stop` hook before the reply's record is written too; its input carries
the reply's text (`last_assistant_message`), so that hook waits until the file's last part holds
an `assistant` record with the start of that text as its JSON string would (`wait_for_reply`; the
telemetry record written before it quotes the text too).
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

WAIT_SECONDS = 3.0  # the longest wait: then the hook reads what is there
POLL_SECONDS = 0.01
TAIL_BYTES = 2**16  # the end of the file looked at for the call's event
REPLY_PREFIX = 40  # characters of the reply looked for


def wait_for_call(path: str, timestamp: Any) -> None:
    """Return once `path` holds the `hook.start` event of the call made at `timestamp` (the hook
    input's), or exists when that time cannot be read, or after `WAIT_SECONDS`."""
    marker = call_marker(timestamp)
    deadline = time.monotonic() + WAIT_SECONDS
    while not _holds(path, marker) and time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)


def wait_for_reply(path: str, reply: Any) -> None:
    """Return once `path` holds the start of `reply` (the hook input's last reply, a text) as a
    JSON string writes it, or at once when there is no such text, or after `WAIT_SECONDS`."""
    if not isinstance(reply, str) or not reply.strip():
        return
    marker = json.dumps(reply[:REPLY_PREFIX], ensure_ascii=False)[1:-1].encode()
    deadline = time.monotonic() + WAIT_SECONDS
    while not _holds_reply(path, marker) and time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)


def _holds_reply(path: str, marker: bytes) -> bool:
    """Whether a line of the last `TAIL_BYTES` of `path` is an `assistant` record holding `marker`."""
    try:
        with open(path, "rb") as file:
            size = os.fstat(file.fileno()).st_size
            file.seek(max(0, size - TAIL_BYTES))
            lines = file.read().splitlines()
    except FileNotFoundError:
        return False
    return any(b'"type":"assistant"' in line and marker in line for line in lines)


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
