"""Keeping the index up to date with the session files it covers, incrementally: a file is read
again only when its fingerprint changed (`fingerprint`), when its findings were found by another
detection (`detection_key`) or when a scan kept its summaries alone (a server's database given is
read at each update: nothing tells it is as it was), a file that is gone leaves the index,
a file that only grew (lines appended: `fingerprint.grown`) is read again whole for its findings
(a call answered by a line appended is no longer an orphan: its findings are those of a full
read), but only its new and changed turns are indexed (`documents`: each turn's digest says
whether it changed; the others keep their rows),
and the files are written a few at a time (`BATCH_FILES`, for at most `BATCH_SECONDS`), each batch
in one transaction (another process indexing at once waits for it, never sees half a file). The files to read are shared between this process and at most
one other (`MAX_PROCESSES`), from `PARALLEL_FROM` files.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

from inspector.model import Location
from inspector.search.detection_key import detection_key
from inspector.search.fingerprint import Fingerprint, grown, unchanged
from inspector.search.index_file import forget_file, is_server_key
from inspector.search.index_writing import write_appended, write_file
from inspector.search.reading import FileRows, read_file
from inspector.search.targets import Target

MAX_PROCESSES = 2  # this one and one more
PARALLEL_FROM = 16  # changed files from which a second process reads half of them
PROGRESS_AFTER = 1.0  # seconds of indexing after which one line on stderr says what is going on
_AHEAD = 8  # files the second process may read ahead of the writer
BATCH_FILES = 64  # files written in one transaction, at most
BATCH_SECONDS = 0.25  # and for at most this long, so that another process waits little
Known = dict[int, dict[int, str]]  # a file's turns' digests as indexed, by session and turn number


@dataclass
class IndexUpdate:
    """What an update did: the files covered, read (new or changed; `appended`: of which only the
    lines appended were indexed), unchanged, removed, and the line of each file that could not be read."""

    files: int = 0
    read: int = 0
    appended: int = 0
    unchanged: int = 0
    removed: int = 0
    errors: list[str] = field(default_factory=list)


def update_index(
    connection: sqlite3.Connection, targets: Sequence[Target], progress: Callable[[str], None] | None = None
) -> IndexUpdate:
    """Bring the index up to date with `targets`: read the new and changed files, drop those gone.
    `progress` gets one line when the update takes longer than `PROGRESS_AFTER` seconds."""
    started = time.monotonic()
    stored = {
        row[0]: Fingerprint(row[1], row[2], row[3])
        for row in connection.execute(
            "SELECT path, size, mtime_ns, digest FROM files WHERE detection = ? AND texts = 1", (detection_key(),)
        )
    }
    known = {row[0] for row in connection.execute("SELECT path FROM files")}
    update = IndexUpdate(files=len(targets))
    changed = [target for target in targets if not _known_and_unchanged(target.path, stored.get(str(target.path)))]
    update.unchanged = len(targets) - len(changed)
    listed = {str(target.path) for target in targets}
    gone = [path for path in known if path not in listed and not is_server_key(path) and not os.path.exists(path)]
    batches = _Batches(connection)
    try:
        for path in gone:
            batches.write(path, None, None)
        update.removed = len(gone)
        said = False
        reads = [
            (target.path, _appended_to(connection, target.path, stored.get(str(target.path)))) for target in changed
        ]
        for target, rows in zip(changed, _read_all(reads), strict=True):
            batches.write(str(target.path), target, rows)
            update.read += 1
            update.appended += rows.appended
            if rows.error:
                update.errors.append(rows.error)
            if progress is not None and not said and time.monotonic() - started > PROGRESS_AFTER:
                progress(
                    f"indexing {len(changed):,} new or changed session files for search (later searches read only what changes)"
                )
                said = True
    finally:
        batches.commit()  # the files written whole so far, even when reading the next one failed
    return update


def _known_and_unchanged(path: Location, stored: Fingerprint | None) -> bool:
    """Whether the file at `path` was indexed as it is now (a server's database: never known)."""
    if stored is None or not isinstance(path, Path):
        return False
    try:
        return unchanged(path, stored)
    except OSError:
        return False


def _appended_to(connection: sqlite3.Connection, path: Location, stored: Fingerprint | None) -> Known | None:
    """When the file at `path` only grew since it was indexed (with the fingerprint `stored`),
    the digests of its turns as indexed, by session and turn number; else None."""
    try:
        if stored is None or not isinstance(path, Path) or not grown(path, stored):
            return None
    except OSError:
        return None
    known: Known = {}
    for session, turn, digest in connection.execute(
        "SELECT sessions.number, turns.number, turns.digest FROM turns JOIN sessions ON turns.session = sessions.id "
        "JOIN files ON sessions.file = files.id WHERE files.path = ?",
        (str(path),),
    ):
        known.setdefault(session, {})[turn] = digest
    return known


def _read_all(reads: list[tuple[Location, Known | None]]) -> Iterator[FileRows]:
    """Each file read (with its turns as indexed, when it only grew), in order; from
    `PARALLEL_FROM` files, every other one by a second process."""
    if len(reads) < PARALLEL_FROM or (os.cpu_count() or 1) < MAX_PROCESSES:
        yield from (_read(path, known) for path, known in reads)
        return
    with ProcessPoolExecutor(MAX_PROCESSES - 1) as pool:
        pending: dict[int, Future[FileRows]] = {}
        submitted = 0
        for number, (path, known) in enumerate(reads):
            for ahead in range(submitted, min(number + 2 * _AHEAD, len(reads))):
                if ahead % 2:
                    with suppress(BrokenProcessPool):  # read here instead
                        pending[ahead] = pool.submit(_read, *reads[ahead])
                submitted = ahead + 1
            yield _result(pending.pop(number), path, known) if number in pending else _read(path, known)


def _result(future: Future[FileRows], path: Location, known: Known | None) -> FileRows:
    """What the second process read; read here when it died."""
    try:
        return future.result()
    except BrokenProcessPool:
        return _read(path, known)


def _read(path: Location, known: Known | None) -> FileRows:
    """The file at `path` read (with its turns as indexed, when lines were appended to it)."""
    return read_file(path) if known is None else read_file(path, known)


class _Batches:
    """Files written into the index a few at a time, each batch in one transaction."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection
        self.files = 0  # written in the open transaction
        self.opened = 0.0  # when it was opened

    def write(self, path: str, target: Target | None, rows: FileRows | None) -> None:
        """Replace what the index holds of the file at `path` with `rows` (nothing when None)."""
        if self.files == 0:
            self.connection.execute("BEGIN IMMEDIATE")
            self.opened = time.monotonic()
        try:
            _replace(self.connection, path, target, rows)
        except BaseException:
            self.files = 0
            self.connection.execute("ROLLBACK")
            raise
        self.files += 1
        if self.files >= BATCH_FILES or time.monotonic() - self.opened > BATCH_SECONDS:
            self.commit()

    def commit(self) -> None:
        """Commit the files written since the last commit."""
        if self.files:
            self.files = 0
            self.connection.execute("COMMIT")


def _replace(connection: sqlite3.Connection, path: str, target: Target | None, rows: FileRows | None) -> None:
    """Replace what the index holds of the file at `path` with `rows`, in the open transaction
    (of a file read after lines were appended, the rows of the turns kept stay)."""
    if target is None or rows is None or rows.fingerprint is None:
        forget_file(connection, path)
    elif rows.appended and not rows.error:
        write_appended(connection, path, target, rows, rows.fingerprint)
    else:
        forget_file(connection, path)
        write_file(connection, path, target, rows, rows.fingerprint)
