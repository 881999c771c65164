"""The index as the scan's cache: `scan` and `report` take a file's session summaries from the
index when the file is as it was when they were kept, instead of reading it and finding its
problems again; and keep what they read for the next time. The app's picker takes a file's
summaries with its findings' keys in a review (`kept_with_anchors`), kept when it or a search
read the file.

A file's summaries are taken only when all of these hold (else the file is read):
- the file still has the fingerprint (`fingerprint`) taken before it was read;
- they were found by the same detection (`detection_key`: this inspector, the same options);
- it was read by the same name (the path as given: a report prints it as given);
- they can be unpacked (`summary_blob`).

A file the index holds that is gone from disk leaves it when the scan is done, as it does at the
next search.

The cache never stops a scan nor changes its answer: an index that cannot be opened, read or
written (broken, locked longer than `WAIT_SECONDS` by another process, on a full disk) is left
alone after one line on stderr, and the files are read as without it. What a scan keeps is
written `BATCH_FILES` files at a time, each batch in one transaction (another process waits
for it, never sees half a file); a search reads such a file again for its words.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path

from inspector.errors import InspectorError
from inspector.model import Location
from inspector.review.anchors import FindingKey
from inspector.scan.summary import SessionSummary
from inspector.search.anchor_blob import Anchors, packed_anchors, unpacked_anchors
from inspector.search.fingerprint import Fingerprint, fingerprint, unchanged
from inspector.search.index_file import forget_file, index_path, is_server_key, open_index
from inspector.search.summary_blob import packed, unpacked
from inspector.support.safe_text import shown_name

WAIT_SECONDS = 2.0  # how long a write waits for another process's transaction before giving up
BATCH_FILES = 64  # files kept in one transaction, at most

_KEPT = (
    "SELECT files.size, files.mtime_ns, files.digest, summaries.read_as, summaries.data, summaries.anchors FROM files "
    "JOIN summaries ON summaries.file = files.id WHERE files.path = ? AND files.detection = ? AND files.error IS NULL"
)


class ScanCache:
    """The summaries kept in the index for one detection (`key`), and what this scan keeps;
    `taken` counts the files taken from the index."""

    def __init__(self, connection: sqlite3.Connection, key: str, say: Callable[[str], None]) -> None:
        self.connection: sqlite3.Connection | None = connection
        self.key = key
        self.say = say
        self.taken = 0
        self.removed = 0  # files gone from disk whose rows this scan dropped
        self._pending: list[tuple[str, Fingerprint, str, bytes, bytes | None]] = []

    def summaries(self, path: Location) -> list[SessionSummary] | None:
        """The summaries kept for the file at `path` when they may be taken (the module's
        docstring says when); None when it must be read."""
        row = self._kept_row(path)
        found = unpacked(row[4]) if row is not None else None
        if found is not None:
            self.taken += 1
        return found

    def kept_with_anchors(self, path: Location) -> tuple[list[SessionSummary], Anchors] | None:
        """The summaries kept for the file at `path` and their findings' keys in a review (one
        tuple per session), when they may be taken and the keys were kept; None when it must be read."""
        row = self._kept_row(path)
        if row is None:
            return None
        anchors = unpacked_anchors(row[5])
        found = unpacked(row[4]) if anchors is not None else None
        if found is None or anchors is None or len(anchors) != len(found):
            return None
        self.taken += 1
        return found, anchors

    def _kept_row(self, path: Location) -> tuple[int, int, str, str, bytes, bytes | None] | None:
        """The index's row for the file at `path` when it was read by the same name and is as it
        was then (None: it must be read)."""
        if self.connection is None or not isinstance(path, Path):
            return None
        try:
            row = self.connection.execute(_KEPT, (str(path.absolute()), self.key)).fetchone()
        except sqlite3.Error as error:
            self._give_up(f"cannot be read ({error})")
            return None
        if row is None or row[3] != str(path) or not _unchanged(path, Fingerprint(row[0], row[1], row[2])):
            return None
        return tuple(row)

    def fingerprint(self, path: Location) -> Fingerprint | None:
        """The fingerprint of the file at `path`, taken before it is read; None when it has none
        (a server's database, a file that cannot be opened): what is read of it is not kept."""
        if self.connection is None or not isinstance(path, Path):
            return None
        try:
            return fingerprint(path)
        except OSError:
            return None

    def keep(
        self,
        path: Path,
        taken: Fingerprint,
        summaries: Sequence[SessionSummary],
        anchors: Sequence[Sequence[FindingKey]] | None = None,
    ) -> None:
        """Keep the `summaries` read from the file at `path`, which had the fingerprint `taken`
        (with `anchors`, each session's findings' keys in a review, when they were made)."""
        if self.connection is None:
            return
        data = packed(summaries)
        if data is None:
            return
        keys = packed_anchors(anchors) if anchors is not None else None
        self._pending.append((str(path.absolute()), taken, str(path), data, keys))
        if len(self._pending) >= BATCH_FILES:
            self._write()

    def close(self) -> None:
        """Write what is still to be kept, drop the files gone from disk, and close the index."""
        if self.connection is not None:
            self._write()
        if self.connection is not None:
            self._forget_gone()
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def _write(self) -> None:
        """Write the summaries kept since the last write, in one transaction."""
        pending, self._pending = self._pending, []
        if not pending or self.connection is None:
            return
        try:
            self.connection.execute("BEGIN IMMEDIATE")
            try:
                for path, taken, read_as, data, anchors in pending:
                    forget_file(self.connection, path)
                    file_id = self.connection.execute(
                        "INSERT INTO files(path, size, mtime_ns, digest, detection, texts) VALUES (?, ?, ?, ?, ?, 0)",
                        (path, taken.size, taken.mtime_ns, taken.digest, self.key),
                    ).lastrowid
                    self.connection.execute(
                        "INSERT INTO summaries(file, read_as, data, anchors) VALUES (?, ?, ?, ?)",
                        (file_id, read_as, data, anchors),
                    )
                self.connection.execute("COMMIT")
            except BaseException:
                self.connection.execute("ROLLBACK")
                raise
        except sqlite3.Error as error:
            self._give_up(f"cannot be written ({error})")

    def _forget_gone(self) -> None:
        """Drop what the index holds of each file gone from disk, in one transaction."""
        assert self.connection is not None
        try:
            gone = [
                path
                for (path,) in self.connection.execute("SELECT path FROM files")
                if not is_server_key(path) and not os.path.exists(path)
            ]
            if not gone:
                return
            self.connection.execute("BEGIN IMMEDIATE")
            try:
                for path in gone:
                    forget_file(self.connection, path)
                self.connection.execute("COMMIT")
            except BaseException:
                self.connection.execute("ROLLBACK")
                raise
            self.removed = len(gone)
        except sqlite3.Error as error:
            self._give_up(f"cannot be written ({error})")

    def _give_up(self, why: str) -> None:
        """Say once why the index is no cache for this scan, and leave it alone."""
        connection, self.connection = self.connection, None
        self._pending = []
        if connection is not None:
            connection.close()
            self.say(f"the scan's cache ({shown_name(index_path())}) {why}; the files are read without it")


def open_scan_cache(key: str, say: Callable[[str], None]) -> ScanCache | None:
    """The cache for findings of the detection `key`; None, said in one line through `say`, when
    the index cannot be opened."""
    try:
        connection = open_index()
    except (InspectorError, sqlite3.Error, OSError) as error:
        say(f"the scan's cache cannot be opened ({error}); the files are read without it")
        return None
    try:
        connection.execute(f"PRAGMA busy_timeout = {int(WAIT_SECONDS * 1000)}")
    except sqlite3.Error as error:
        connection.close()
        say(f"the scan's cache cannot be opened ({error}); the files are read without it")
        return None
    return ScanCache(connection, key, say)


def _unchanged(path: Path, stored: Fingerprint) -> bool:
    """Whether the file at `path` still has the fingerprint `stored` (not when it cannot be read)."""
    try:
        return unchanged(path, stored)
    except OSError:
        return False
