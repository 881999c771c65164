"""Scanning a large history (SQLite, or PostgreSQL with `--jobs N`) on every CPU.

Conversations are independent, so a history is cut into as many contiguous ranges of its
conversations as there are workers, each holding about the same number of messages. This process
scans the first range while worker processes scan the others, each with its own read-only
connection; their summaries come back in order, so the report is the same as a scan on one CPU.
Files and one `--session` are scanned here alone, and so are histories smaller than `MIN_BYTES`
unless `--jobs N` asks for workers: starting them would cost more than they save. A database on
a PostgreSQL server has no size here: it is scanned on several CPUs only when `--jobs N` asks.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import closing, suppress
from itertools import chain, islice
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from inspector.errors import InspectorError
from inspector.model import Location, ToolSpec
from inspector.scan.scanner import iter_scan
from inspector.scan.summary import SessionSummary, summarise
from inspector.sources import open_source
from inspector.sources.base import Source
from inspector.support.gc_pause import collector_paused
from inspector.support.quick_exit import hold
from inspector.support.safe_text import shown_name

if TYPE_CHECKING:
    import multiprocessing
    from multiprocessing.connection import Connection

MIN_BYTES = 16 * 2**20  # about 50,000 messages: below this, starting workers costs about what they save
MAX_WORKERS = 8  # each worker seeks to its first conversation, which costs more the more there are


class ScanRequest(NamedTuple):
    """What to scan: a path and the options that say how to read it."""

    path: Location
    format_name: str | None = None
    extra_tools: tuple[ToolSpec, ...] = ()
    table: str | None = None
    mapping: dict[str, str] | None = None

    def open(self) -> Source:
        """The source the request names."""
        return open_source(self.path, self.format_name, self.table, self.mapping)


def scan_summaries(request: ScanRequest, only: str | None = None, jobs: int | None = None) -> Iterator[SessionSummary]:
    """The summary of each session of `request.path`, in order (only the session `only` when
    given). `jobs` is the number of processes; None uses every CPU (up to `MAX_WORKERS`) for a
    history file of `MIN_BYTES` or more, and 1 scans in this process alone."""
    check_jobs(jobs)
    workers = jobs or min(available_cpus(), MAX_WORKERS)
    ranges: list[tuple[int, int]] = []
    source = request.open()
    if only is None and workers > 1 and source.streams and (jobs is not None or _large_file(request.path)):
        ranges = split_evenly([entry.messages for entry in source.listing()], workers)
    if len(ranges) < 2:  # a file, one session, a small history, or one conversation or none
        yield from map(summarise, iter_scan(source, request.extra_tools, only))
        if not source.streams:  # a file read whole: the command line may end without freeing it
            hold(source)
    else:
        yield from _in_workers(request, ranges)


def _large_file(path: Location) -> bool:
    """Whether `path` is a history file of `MIN_BYTES` or more (a server's database is scanned on
    several CPUs only when `--jobs N` asks)."""
    return isinstance(path, Path) and path.stat().st_size >= MIN_BYTES


def check_jobs(jobs: int | None) -> None:
    """Fail when `--jobs N` is not a positive number of processes."""
    if jobs is not None and jobs < 1:
        raise InspectorError(f"--jobs: {jobs} is not a positive number of processes")


def available_cpus() -> int:
    """The CPUs this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def split_evenly(sizes: list[int], parts: int) -> list[tuple[int, int]]:
    """At most `parts` contiguous (start, count) ranges of the items whose sizes are `sizes`, each
    with about the same total size: an item goes to the range its middle falls in. None is empty."""
    total, done = sum(sizes) or 1, 0
    ranges: list[list[int]] = []  # [part, start, count]
    for index, size in enumerate(sizes):
        part = min(parts - 1, (2 * done + size) * parts // (2 * total))
        done += size
        if ranges and ranges[-1][0] == part:
            ranges[-1][2] += 1
        else:
            ranges.append([part, index, 1])
    return [(start, count) for _, start, count in ranges]


def scan_range(request: ScanRequest, start: int, count: int) -> tuple[list[SessionSummary], str | None]:
    """The summaries of `count` sessions from number `start`, and the error that stopped the
    scan early (None when none did). Runs in a worker process."""
    summaries: list[SessionSummary] = []
    try:
        with collector_paused(), closing(iter_scan(request.open(), request.extra_tools, start=start)) as results:
            summaries.extend(map(summarise, islice(results, count)))
    except InspectorError as error:
        return summaries, str(error)
    return summaries, None


class _Worker(NamedTuple):
    """A process scanning one range of conversations, and the end of the pipe its answer comes through."""

    process: multiprocessing.process.BaseProcess
    answer: Connection
    start: int
    size: int  # how many conversations


def _in_workers(request: ScanRequest, ranges: list[tuple[int, int]]) -> Iterator[SessionSummary]:
    """Scan the first range here while a worker process scans each other one; the summaries in order.
    Workers ignore Ctrl-C: this process gets it, and leaving stops every worker."""
    context, workers = worker_context(), []
    try:
        for start, count in ranges[1:]:
            answer, sender = context.Pipe(duplex=False)
            process = context.Process(target=_scan_and_send, args=(request, start, count, answer, sender), daemon=True)
            process.start()
            sender.close()  # the worker's copy is the only one left: its end, if it dies, is seen here
            workers.append(_Worker(process, answer, start, count))
        answers = (_answer(worker, request.path) for worker in workers)
        for summaries, error in chain([scan_range(request, *ranges[0])], answers):
            yield from summaries
            if error is not None:
                raise InspectorError(error)
    finally:
        for worker in workers:
            worker.process.terminate()
            worker.process.join()
            worker.answer.close()


def _scan_and_send(request: ScanRequest, start: int, count: int, answer: Connection, sender: Connection) -> None:
    """A worker process: scan its range and send back what `scan_range` returns. It closes its copy
    of the pipe's other end, so that if this process's parent is killed, the send fails (quietly)
    instead of waiting for ever."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    answer.close()
    with closing(sender), suppress(BrokenPipeError):
        sender.send(scan_range(request, start, count))


def _answer(worker: _Worker, path: Location) -> tuple[list[SessionSummary], str | None]:
    """What the worker sent back, or, when it ended without answering (killed for lack of memory,
    say), no summaries and an error saying so, where a pool would wait for ever."""
    try:
        return worker.answer.recv()
    except (EOFError, OSError):  # the end of the pipe before the answer, or in the middle of it
        worker.process.join()
        code = worker.process.exitcode or 0
        how = f"was killed by signal {-code}" if code < 0 else f"stopped (exit code {code})"
        last = worker.start + worker.size
        return (
            [],
            f"{shown_name(path)}: the process scanning conversations {worker.start + 1} to {last} {how}; try fewer --jobs",
        )


def worker_context() -> multiprocessing.context.ForkContext | multiprocessing.context.SpawnContext:
    """Forked workers on Linux when this process runs no other thread (they start at once, with
    everything imported); else a fresh interpreter each, as on other platforms: a fork copies
    locks that another thread may hold, and the worker could wait on one for ever."""
    import multiprocessing  # imported here: a file, the usual scan, never starts a worker

    fork = sys.platform == "linux" and threading.active_count() == 1
    return multiprocessing.get_context("fork") if fork else multiprocessing.get_context("spawn")
