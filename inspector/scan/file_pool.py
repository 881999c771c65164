"""Scanning many session files on every CPU: a person's own sessions are hundreds of files, each
read and checked apart, so worker processes each take the next file while this one gathers what
they found, in the files' order.

Workers start only when they save time: two files or more to read holding `MIN_POOL_BYTES` or more
together (starting a worker costs about what scanning a few megabytes does), or `--jobs N` (N > 1)
asking for them. A file of `MIN_BYTES` or more (a large history, which `parallel` cuts into ranges
of conversations itself) is read here, as is every file when the workers would be one. A file that
cannot be read gives its error line as it would in one process, in its place; a worker that dies
(killed for lack of memory, say) gives each of its files an error saying so, never a wait for ever.
"""

from __future__ import annotations

import signal
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from inspector.errors import InspectorError
from inspector.scan.parallel import MAX_WORKERS, MIN_BYTES, ScanRequest, available_cpus, scan_summaries, worker_context
from inspector.scan.summary import SessionSummary
from inspector.support.gc_pause import collector_paused
from inspector.support.safe_text import shown_name

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

MIN_POOL_BYTES = 4 * 2**20  # the files to read together: below this, one process is about as quick


class FileScan(NamedTuple):
    """What one file's scan gave: the summary of each session read, and the error that stopped it
    (None when none did)."""

    summaries: list[SessionSummary]
    error: str | None


def scan_file(request: ScanRequest, only: str | None = None, jobs: int | None = None) -> FileScan:
    """The summaries of the sessions of `request.path` (only `only` when given), and the error that
    stopped the scan early, if any; those read before it are kept."""
    summaries: list[SessionSummary] = []
    try:
        with collector_paused():  # a long history builds many objects and frees few
            summaries.extend(scan_summaries(request, only, jobs))
    except InspectorError as error:
        return FileScan(summaries, str(error))
    return FileScan(summaries, None)


class FilePool:
    """Worker processes scanning the files handed to them, started when the files are worth it."""

    def __init__(self, requests: Sequence[ScanRequest], only: str | None, jobs: int | None) -> None:
        self.only, self.jobs = only, jobs
        sizes = [_size(request) for request in requests]
        pooled = [
            number for number, size in enumerate(sizes) if isinstance(requests[number].path, Path) and size < MIN_BYTES
        ]
        workers = min(jobs or available_cpus(), MAX_WORKERS, len(pooled))
        worth_it = jobs is not None or sum(sizes[number] for number in pooled) >= MIN_POOL_BYTES
        self._executor: ProcessPoolExecutor | None = None
        self._futures: dict[int, Future[FileScan]] = {}
        self._workers = workers if workers > 1 and worth_it else 0
        if self._workers:
            from concurrent.futures import ProcessPoolExecutor  # imported here: most scans start no worker

            self._executor = ProcessPoolExecutor(workers, mp_context=worker_context(), initializer=_ignore_interrupts)
            for number in pooled:  # (a file on disk smaller than a large history)
                self._futures[number] = self._executor.submit(scan_file, requests[number], only, 1)

    @property
    def workers(self) -> int:
        """How many worker processes scan the files (0: every file is scanned here)."""
        return self._workers

    def scan(self, number: int, request: ScanRequest) -> FileScan:
        """The scan of `request`, the `number`th of the requests given: a worker's, or made here."""
        future = self._futures.pop(number, None)
        if future is None:
            return scan_file(request, self.only, self.jobs)
        from concurrent.futures.process import BrokenProcessPool

        try:
            return future.result()
        except BrokenProcessPool:
            return FileScan([], f"{shown_name(request.path)}: the process scanning it stopped; try --jobs 1")

    def close(self) -> None:
        """Stop the workers, dropping the files not begun (after an interruption or an error)."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)


def _size(request: ScanRequest) -> int:
    """The file's size in bytes (0 for a server's database or a file gone)."""
    if not isinstance(request.path, Path):
        return 0
    try:
        return request.path.stat().st_size
    except OSError:
        return 0


def _ignore_interrupts() -> None:
    """In a worker: Ctrl-C is this process's parent's to handle, which stops the workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
