"""The part of a transcript that is new since the hook's last call, read from the end of the file.

The hook runs at the end of every reply, on transcripts that grow to hundreds of megabytes: it
never reads the whole file. It reads from the offset it reached last time, when the file is the
same one grown (its head unchanged, its size not below the offset); otherwise (a first call, a
transcript cut, compacted or rewritten) it reads at most `WINDOW` bytes from the end, starting
at a line's start. A last line not yet ended (the agent still writing it) is left for next time.
"""

from __future__ import annotations

import os
import zlib

from inspector.hooks.hook_state import HEAD_BYTES, HookState

WINDOW = 4 * 2**20  # the most read of a transcript the hook has not read before, from its end


class Tail:
    """The whole lines of the transcript from `start` (a line's start) to `end` (just after the
    last line break), and the digest of the file's head up to `end` (at most `HEAD_BYTES`)."""

    __slots__ = ("data", "end", "head", "start")

    def __init__(self, data: bytes, start: int, end: int, head: str) -> None:
        self.data = data
        self.start = start
        self.end = end
        self.head = head


def read_tail(path: str, state: HookState) -> Tail:
    """What `path` holds past what `state` says was read, as whole lines (see the module's
    docstring). Raises `OSError` when the file cannot be read."""
    with open(path, "rb") as file:
        size = os.fstat(file.fileno()).st_size
        first = file.read(HEAD_BYTES)
        same = state.transcript == path and state.offset <= size and state.head == head_digest(first, state.offset)
        start = state.offset if same else max(0, size - WINDOW)
        file.seek(start)
        data = file.read(size - start)
    if not same and start > 0:  # a window's first line is cut: it starts after the first break
        first_break = data.find(b"\n")
        cut = first_break + 1 if first_break >= 0 else len(data)
        data, start = data[cut:], start + cut
    last_break = data.rfind(b"\n")
    data = data[: last_break + 1]
    end = start + len(data)
    return Tail(data, start, end, head_digest(first, end))


def head_digest(first: bytes, end: int) -> str:
    """The checksum of a transcript's head as it was when read up to `end`: its first bytes, at
    most `HEAD_BYTES` (a file shorter than that keeps the same head as it grows), and their count.
    A check against a file rewritten, not against tampering: CRC-32 (no `hashlib` to import)."""
    head = first[: min(HEAD_BYTES, end)]
    return f"{len(head)}:{zlib.crc32(head):08x}"
