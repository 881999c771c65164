"""A session file another process is still writing (an agent's transcript while it runs), read a
piece at a time: each `grow` reads only the bytes appended since the last one, and reads the file
again from the start only when it was rewritten: smaller than what was read, or the bytes at the
start or at the end of what was read changed (a tool that saves the whole JSON document each time,
a compaction, a truncation).

A JSON Lines file is parsed up to its last complete line, so a line half written is read once it
is whole; a JSON document that does not parse yet (half written) is an `InspectorError`, as any
file that does not parse, and the next `grow` tries again.
"""

from __future__ import annotations

import enum
import os
from pathlib import Path

from inspector.sources.files.document import Document, parse_document
from inspector.sources.files.file_state import FileState

_EDGE = 4096  # bytes compared at each end of what was read, to tell an append from a rewrite


class Growth(enum.Enum):
    """What happened to the file since the last `grow`."""

    NONE = "none"
    APPENDED = "appended"
    REWRITTEN = "rewritten"


class GrowingFile:
    """A file being appended to, as read so far."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._data = bytearray()
        self._status: os.stat_result | None = None  # the file's, at the last `grow`
        self._parsed = 0  # the bytes the last `document` parsed

    def grow(self) -> Growth:
        """Read what was appended since the last call (or the whole file when it was rewritten)."""
        read = len(self._data)
        with open(self.path, "rb") as file:
            self._status = os.fstat(file.fileno())
            size = self._status.st_size
            head = file.read(min(_EDGE, read))
            tail_start = max(0, read - _EDGE)
            file.seek(tail_start)
            tail = file.read(read - tail_start)
            if size < read or head != self._data[: len(head)] or tail != self._data[tail_start:]:
                file.seek(0)
                self._data = bytearray(file.read())
                return Growth.REWRITTEN
            added = file.read()
        self._data += added
        return Growth.APPENDED if added else Growth.NONE

    def document(self) -> Document:
        """The file as read so far, parsed: a JSON Lines file up to its last complete line."""
        data = bytes(self._data)
        whole = data.rfind(b"\n") + 1
        if 0 < whole < len(data):  # a last line still being written
            lines = parse_document(self.path, data[:whole])
            if lines.is_jsonl:
                self._parsed = whole
                return lines
        self._parsed = len(data)
        return parse_document(self.path, data)

    def state(self) -> FileState:
        """The file as the last `document` holds it: its size is the bytes parsed, so a last line
        left out (still being written) reads as a change (`file_state`)."""
        assert self._status is not None, "grow() reads the file first"
        return FileState.of(self._status, self._parsed)
