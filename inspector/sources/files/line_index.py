"""The lines of a file's bytes as offsets, as texts on demand, and which record stands on which.

A JSON Lines file is held once, as the bytes read; a line is where it starts and where the next
one does. `LineTexts` shows those lines as a sequence of strings, each decoded when it is asked
for, so a file's text is never held whole nor line by line. `LinePlaces` finds the line a record
was read from, to write it back as it was.
"""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Iterator, Sequence
from itertools import pairwise
from typing import Any, overload


def line_starts(data: bytes | bytearray, start: int = 0) -> array[int]:
    """Where each line of `data[start:]` starts, then where the data ends: lines are split at line
    feeds only (JSON allows U+2028 and the like raw inside strings), each keeps its ending, and the
    last is a line when it is not empty, ending or not."""
    starts = array("q")
    find, end, position = data.find, len(data), start
    while position < end:
        starts.append(position)
        position = find(b"\n", position) + 1 or end
    starts.append(end)
    return starts


class LineTexts(Sequence[str]):
    """The lines of UTF-8 `data` bounded by `starts` (as `line_starts` gives them), each with its
    ending, decoded when read."""

    def __init__(self, data: bytes | bytearray, starts: array[int]) -> None:
        self._view = memoryview(data)
        self._starts = starts

    def __len__(self) -> int:
        return len(self._starts) - 1

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [self[number] for number in range(*index.indices(len(self)))]
        count = len(self)
        if index < 0:
            index += count
        if not 0 <= index < count:
            raise IndexError("line index out of range")
        return str(self._view[self._starts[index] : self._starts[index + 1]], "utf-8")

    def joined(self, start: int, stop: int) -> str:
        """Lines `start` to `stop` (not included) as one text, decoded at once."""
        return str(self._view[self._starts[start] : self._starts[stop]], "utf-8")

    def bytes_of(self, start: int, stop: int | None = None) -> memoryview:
        """The bytes of line `start`, or of lines `start` to `stop` (not included), as read."""
        return self._view[self._starts[start] : self._starts[start + 1 if stop is None else stop]]

    def __iter__(self) -> Iterator[str]:
        view = self._view
        for start, stop in pairwise(self._starts):
            yield str(view[start:stop], "utf-8")


class LinePlaces:
    """Where each of a file's records stands, found by identity: a record that stands on several
    lines (the one None of the blank lines, a small integer) gives them in order, then the last."""

    def __init__(self, records: list[Any]) -> None:
        self._next: dict[int, int] = {}
        self._later: dict[int, deque[int]] = {}  # the other lines of a record on several
        for index, record in enumerate(records):
            if id(record) in self._next:
                self._later.setdefault(id(record), deque()).append(index)
            else:
                self._next[id(record)] = index

    def of(self, record: Any) -> int | None:
        """The line of `record` (its next one when it stands on several); None for a new record."""
        index = self._next.get(id(record))
        later = self._later.get(id(record))
        if later:
            self._next[id(record)] = later.popleft()
        return index
