"""The search index as the search screen uses it, from its thread workers: brought up to date
once (the update `inspector search` runs first), then asked one query at a time. One connection,
used by one thread at a time; closing it waits for no query: the one running closes it when done.

Whatever goes wrong with the index (its folder cannot be made, the database cannot be read or
written) is an `InspectorError` of one line, never a traceback."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from inspector.errors import InspectorError
from inspector.model import Location
from inspector.search import Hit, IndexUpdate, SearchFilter, facet_counts, index_targets, open_index, search
from inspector.search import update_index as update_search_index

ANSWER_LIMIT = 100  # hits shown for one query, at most


@dataclass(frozen=True)
class Answer:
    """What one query found: the words and facets asked, its hits (best first), the counts of
    findings by facet over what it matches (as `inspector search --facets` counts them), and how
    long it took, in seconds."""

    typed: str
    chosen: SearchFilter
    hits: list[Hit]
    counts: dict[str, dict[str, int]]
    seconds: float


class IndexAccess:
    """The person's search index, covering their own sessions and `paths`."""

    def __init__(self, paths: Sequence[Location] = ()) -> None:
        """`paths`: session files (and servers' databases) to index besides the person's own
        (those of the list the search was opened from)."""
        self.paths = list(paths)
        self._connection: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._closed = False

    def update(self, progress: Callable[[str], None], fresh: bool = False) -> IndexUpdate:
        """Open the index and bring it up to date (`fresh`: build it again from scratch);
        `progress` gets a line on what is being done."""
        with self._lock:
            try:
                targets = index_targets(self.paths)
                progress(f"Bringing the search index up to date with {len(targets):,} session files…")
                if self._connection is not None:
                    self._connection.close()
                    self._connection = None
                self._connection = open_index(fresh=fresh)
                return update_search_index(self._connection, targets, progress)
            except (sqlite3.Error, OSError) as error:
                raise InspectorError(f"the search index cannot be used ({_reason(error)})") from None
            finally:
                self._close_if_asked()

    def answer(self, typed: str, chosen: SearchFilter, limit: int = ANSWER_LIMIT) -> Answer:
        """The hits of the words `typed` narrowed by `chosen`, and the facet counts."""
        with self._lock:
            if self._connection is None:
                raise InspectorError("the search index is not open")
            started = time.perf_counter()
            try:
                hits = search(self._connection, typed, chosen, limit)
                counts = facet_counts(self._connection, typed, chosen)
            except sqlite3.Error as error:
                raise InspectorError(f"the search index could not answer ({_reason(error)})") from None
            finally:
                self._close_if_asked()
            return Answer(typed, chosen, hits, counts, time.perf_counter() - started)

    def close(self) -> None:
        """Close the index now, or as soon as the query or update under way is done."""
        self._closed = True
        if self._lock.acquire(blocking=False):
            try:
                self._close_if_asked()
            finally:
                self._lock.release()

    def _close_if_asked(self) -> None:
        if self._closed and self._connection is not None:
            self._connection.close()
            self._connection = None


def _reason(error: BaseException) -> str:
    """The reason an error gives, in one line."""
    reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
    return " ".join(str(reason).split())
