"""What a reader does not know (`Unread`): records of a type it does not read, and keys it does not
know on the records it reads, each counted under the version of the tool that wrote it when the
file says. A format that can tell offers a `survey` of a document (`FileFormat.survey`), made with
an `UnreadTally`; `scan --unknowns` lists the surveys of a person's sessions, so a tool's format
change is seen the day it ships. Reading never depends on it: what is unread stays in the file,
written back untouched, and the problems each reader words itself still say so."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Unread:
    """Records of a type the reader does not know (`key` is None; `record_type` "" when a record
    has none), or a `key` it does not know on records of a type it reads; `count` of them in one
    file, written by the tool's `version` (None when the file does not say)."""

    version: str | None
    record_type: str
    key: str | None
    count: int


class UnreadTally:
    """The unknown record types and keys of one file, counted as the survey meets them."""

    def __init__(self, known_keys: Mapping[str, frozenset[str]]) -> None:
        """`known_keys`: for each record type whose keys the reader knows, those keys (the keys of
        records of other types are not looked at)."""
        self._known_keys = known_keys
        self._counts: Counter[tuple[str | None, str, str | None]] = Counter()

    def knows(self, record_type: str) -> bool:
        """Whether the reader knows records of `record_type` (its keys are among `known_keys`)."""
        return record_type in self._known_keys

    def unknown_type(self, record_type: object, version: str | None) -> None:
        """Count one record of a type the reader does not know (anything but a string: none)."""
        self._counts[version, record_type if isinstance(record_type, str) else "", None] += 1

    def keys(self, record_type: str, keys: Iterable[str], version: str | None) -> None:
        """Count each of a record's `keys` the reader does not know for its type."""
        known = self._known_keys.get(record_type)
        if known is not None:
            for key in keys:
                if key not in known:
                    self._counts[version, record_type, key] += 1

    def unread(self) -> tuple[Unread, ...]:
        """What was counted, in the order it was first met."""
        return tuple(Unread(version, kind, key, count) for (version, kind, key), count in self._counts.items())
