"""Running the user's executor as a bounded child: in its own process group (a time-out stops it
and every process it started), read until it exits (a background child still holding its output
does not make it look hung), and keeping at most `MAX_OUTPUT` bytes of what it prints (the rest is
counted, not held).
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import time
from dataclasses import dataclass
from typing import IO

MAX_OUTPUT = 1 << 20  # bytes of standard output kept (1 MiB); more is counted and cut
STDERR_KEPT = 64 * 1024  # bytes of standard error kept, the last ones
AFTER_EXIT = 0.2  # seconds to read what is left once the executor has exited
_CHUNK = 64 * 1024


@dataclass(frozen=True)
class Finished:
    """How a run ended: the exit status (None when stopped at the time-out), the first
    `MAX_OUTPUT` bytes of standard output and how many more were cut, the last bytes of standard
    error."""

    status: int | None
    stdout: bytes
    cut: int
    stderr: bytes


def run_bounded(argv: list[str], request: bytes, timeout: float) -> Finished:
    """Run `argv` (no shell) with `request` on its standard input, for at most `timeout` seconds.
    Raises `OSError` when it cannot start."""
    process = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    stdin, stdout, stderr = process.stdin, process.stdout, process.stderr
    assert stdin is not None and stdout is not None and stderr is not None  # all three are pipes
    kept, cut, errors = bytearray(), 0, bytearray()
    pending = memoryview(request)  # what the executor has not read yet
    deadline = time.monotonic() + timeout
    exited_at: float | None = None
    os.set_blocking(stdin.fileno(), False)
    with selectors.DefaultSelector() as selector:
        selector.register(stdin, selectors.EVENT_WRITE)
        selector.register(stdout, selectors.EVENT_READ)
        selector.register(stderr, selectors.EVENT_READ)
        while selector.get_map():
            now = time.monotonic()
            if exited_at is None and process.poll() is not None:
                exited_at = now
            if now >= deadline or (exited_at is not None and now - exited_at >= AFTER_EXIT):
                break
            for key, _ in selector.select(timeout=min(0.05, deadline - now)):
                if key.fileobj is stdin:
                    pending = _write_some(stdin, pending)
                    if not pending:
                        selector.unregister(stdin)
                        stdin.close()
                    continue
                chunk = os.read(key.fd, _CHUNK)
                if not chunk:
                    selector.unregister(key.fileobj)
                elif key.fileobj is stdout:
                    room = MAX_OUTPUT - len(kept)
                    kept += chunk[:room]
                    cut += max(0, len(chunk) - room)
                else:
                    errors = (errors + chunk)[-STDERR_KEPT:]
    status = process.poll()
    if status is None and time.monotonic() >= deadline:
        _stop_group(process)
    elif status is None:
        status = process.wait()
    for stream in (stdin, stdout, stderr):
        if not stream.closed:
            stream.close()
    return Finished(status, bytes(kept), cut, bytes(errors))


def _write_some(stdin: IO[bytes], pending: memoryview) -> memoryview:
    """Give the executor what it can take of `pending` now; what is left (nothing once it closed
    its input)."""
    try:
        return pending[os.write(stdin.fileno(), pending[:_CHUNK]) :]
    except BlockingIOError:
        return pending
    except BrokenPipeError:
        return pending[len(pending) :]


def _stop_group(process: subprocess.Popen[bytes]) -> None:
    """Kill the executor and every process of its group, and reap it."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        process.kill()
    process.wait()
