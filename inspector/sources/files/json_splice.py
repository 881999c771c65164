"""Writing a JSON document back from the bytes it was read from: what a repair left as it was is
copied from them, and only what it changed is encoded again.

A writer builds the repaired value from the original one by sharing: an untouched record is the
very same object (`messages.record_lists.rebuild_records`), and a changed object or list is a new
one holding the same objects wherever nothing changed. `spliced` walks the new value against the
original: a value that is the original one (by identity) is written as its original bytes; a new
object in place of an original object (the document itself, or the value of one of its keys) and
a new list in place of an original list are walked again, item by item; anything else is encoded
as `json.dumps` writes it with the document's indentation, at its depth. Original list items that
stay next to each other are copied as one slice, separators and all; new items are separated as
the list's first two were (or as `json.dumps` separates them, in a list that had fewer).

Where each item of an original object or list stands in the bytes comes from `msgspec`, which
gives each item's bytes (`msgspec.Raw`) without decoding it, and a walk over what separates them,
linear in the size of the container. Whatever the walk does not find as expected (keys given
twice, say) gives None: the caller encodes the whole value instead.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from itertools import accumulate, compress, count, pairwise, repeat
from operator import sub
from typing import Any

import msgspec

from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.safe_text import utf8_bytes

Bytes = bytes | bytearray
_ITEMS = msgspec.json.Decoder(list[msgspec.Raw]).decode
_MEMBERS = msgspec.json.Decoder(dict[str, msgspec.Raw]).decode
_KEY = msgspec.json.Decoder(str).decode
_SPACE = lazy_pattern(rb"[ \t\r\n]*")
_COMMA = lazy_pattern(rb"[ \t\r\n]*,[ \t\r\n]*")
_COLON = lazy_pattern(rb"[ \t\r\n]*:[ \t\r\n]*")
_STRING = lazy_pattern(rb'"(?:[^"\\]|\\.)*"')
_NEW = -2  # the place in the original list of an item that is not one of its items


class _Unexpected(Exception):
    """The bytes are not laid out as the walk expects: the value is encoded whole instead."""


def spliced(data: Bytes, old: Any, new: Any, indent: int | str | None) -> bytes | None:
    """The document whose bytes `data` hold the value `old`, written with `new` in its place
    (see the module's docstring): the blank space around the value as it was, the parts of `new`
    that are parts of `old` as their bytes, the rest encoded with `indent`. None when the bytes
    are not laid out as expected."""
    start = _match(_SPACE, data, 0)
    stop = len(data)
    while stop > start and data[stop - 1] in b" \t\r\n":
        stop -= 1
    splice = _Splice(data)
    try:
        splice.value(start, stop, old, new, _Layout(indent, 0))
    except (_Unexpected, msgspec.DecodeError):
        return None
    return b"".join([splice.view[:start], *splice.out, splice.view[stop:]])


@dataclass(frozen=True)
class _Layout:
    """The document's indentation (as `json.dumps` takes it) and the depth of a value in it."""

    indent: int | str | None
    depth: int

    def inner(self) -> _Layout:
        """The layout of the items of a container at this depth."""
        return _Layout(self.indent, self.depth + 1)

    def encoded(self, value: Any) -> bytes:
        """`value` as `json.dumps` writes it within a document indented so, at this depth."""
        text = json.dumps(value, indent=self.indent, ensure_ascii=False)
        if self.indent is not None and self.depth:
            text = text.replace("\n", "\n" + self._unit() * self.depth)  # a line break is never inside a string
        return utf8_bytes(text)

    def separator(self) -> bytes:
        """What `json.dumps` puts between the items of a container at this depth."""
        if self.indent is None:
            return b", "
        return b",\n" + (self._unit() * (self.depth + 1)).encode()

    def _unit(self) -> str:
        return self.indent if isinstance(self.indent, str) else " " * (self.indent or 0)


class _Splice:
    """The pieces of the new document, in order, taken from the bytes `data` or encoded."""

    def __init__(self, data: Bytes) -> None:
        self.data = data
        self.view = memoryview(data)
        self.out: list[Bytes | memoryview] = []

    def value(self, start: int, stop: int, old: Any, new: Any, layout: _Layout) -> None:
        """Append `new`, standing where `old` stood (`data[start:stop]`)."""
        if new is old:
            self.out.append(self.view[start:stop])
        elif type(new) is list and type(old) is list and old and new:
            self._list(start, stop, old, new, layout)
        elif type(new) is dict and type(old) is dict and old and new:
            self._object(start, stop, old, new, layout)
        else:
            self.out.append(layout.encoded(new))

    def _list(self, start: int, stop: int, old: list[Any], new: list[Any], layout: _Layout) -> None:
        """Append the list `new`, standing where the list `old` stood: each run of original items
        that stay next to each other as one slice, the others encoded."""
        starts, stops, separator = self._list_spans(start, stop)
        separator = separator or layout.separator()
        inner, view, out = layout.inner(), self.view, self.out
        # each item's place in `old`, or _NEW; a run breaks wherever a place is not the last one's next
        places = list(map(dict(zip(map(id, old), count())).get, map(id, new), repeat(_NEW)))
        breaks = [0, *compress(count(1), map((1).__ne__, map(sub, places[1:], places[:-1]))), len(places)]
        out.append(view[start : starts[0]])
        for first, last in pairwise(breaks):
            if first:
                out.append(separator)
            if places[first] == _NEW:  # a new item is a run of its own: the next place is never one more
                out.append(inner.encoded(new[first]))
            else:
                out.append(view[starts[places[first]] : stops[places[last - 1]]])
        out.append(view[stops[-1] : stop])

    def _object(self, start: int, stop: int, old: dict[str, Any], new: dict[str, Any], layout: _Layout) -> None:
        """Append the object `new`, standing where the object `old` stood: each member it keeps
        as its bytes, each it changes with its key as written and its value walked again, new
        ones encoded."""
        starts, value_starts, stops, member = self._object_spans(start, stop)
        separator = (self.data[stops[0] : starts[1]] if len(starts) > 1 else b"") or layout.separator()
        inner, view, out = layout.inner(), self.view, self.out
        out.append(view[start : starts[0]])
        for number, (key, value) in enumerate(new.items()):
            if number:
                out.append(separator)
            index = member.get(key)
            if index is None:
                out.append(inner.encoded(key) + b": " + inner.encoded(value))
                continue
            out.append(view[starts[index] : value_starts[index]])
            self.value(value_starts[index], stops[index], old[key], value, inner)
        out.append(view[stops[-1] : stop])

    def _list_spans(self, start: int, stop: int) -> tuple[list[int], list[int], Bytes]:
        """Where each item of the list `data[start:stop]` starts and stops, and what separates the
        first two (empty when there is one). When the items are all separated alike (as every
        tool writes them), one comparison of the bytes with the items joined by that separator
        checks it; else each separator is found in turn."""
        data = self.data
        items = _ITEMS(self.view[start:stop])
        lengths = list(map(len, items))
        first = _match(_SPACE, data, start + 1)
        separator = (
            bytes(data[first + lengths[0] : _match(_COMMA, data, first + lengths[0])]) if len(items) > 1 else b""
        )
        if data.startswith(separator.join(items), first):
            step = len(separator)
            starts = list(accumulate((length + step for length in lengths[:-1]), initial=first))
        else:
            starts, position = [], first
            for number, length in enumerate(lengths):
                position = _match(_COMMA, data, position) if number else position
                starts.append(position)
                position += length
        stops = [begin + length for begin, length in zip(starts, lengths)]
        self._closes(stops[-1], stop, b"]")
        return starts, stops, separator

    def _object_spans(self, start: int, stop: int) -> tuple[list[int], list[int], list[int], dict[str, int]]:
        """Where each member of the object `data[start:stop]` starts (its key), where its value
        starts and where it stops, and the place of each key among them."""
        data = self.data
        members = _MEMBERS(self.view[start:stop])
        starts: list[int] = []
        value_starts: list[int] = []
        stops: list[int] = []
        place: dict[str, int] = {}
        position = _match(_SPACE, data, start + 1)
        for number in range(len(members)):
            if number:
                position = _match(_COMMA, data, position)
            found = _STRING.match(data, position)
            if found is None:
                raise _Unexpected
            key = _KEY(found.group())
            if key not in members or key in place:  # a key given twice: its first value was decoded over
                raise _Unexpected
            place[key] = number
            starts.append(position)
            position = _match(_COLON, data, found.end())
            value_starts.append(position)
            position += len(members[key])
            stops.append(position)
        self._closes(stops[-1], stop, b"}")
        return starts, value_starts, stops, place

    def _closes(self, position: int, stop: int, bracket: bytes) -> None:
        """Check that only blank space and the closing `bracket` stand from `position` to `stop`."""
        closing = _match(_SPACE, self.data, position)
        if closing != stop - 1 or self.data[closing:stop] != bracket:
            raise _Unexpected


def _match(pattern: re.Pattern[bytes], data: Bytes, position: int) -> int:
    """Where `pattern`, which must match at `position`, ends."""
    found = pattern.match(data, position)
    if found is None:
        raise _Unexpected
    return found.end()
