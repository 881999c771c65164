"""`scan` and `report` with the search index as their cache (`inspector.search.scan_cache`): a
file unchanged since it was last read is taken from the index, not read again; what is read is
kept there for the next time. `--no-cache` reads every file; so does a scan of one `--session`
(a session is looked for by reading). A file with a baseline beside it is always read (its
findings are those the baseline leaves). A file gone from disk leaves the index when the scan is
done. `--cache-stats` says on stderr how many files were taken from the index and how many were
read (and how many gone from disk left it, when any did).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from inspector.model import ToolSpec
from inspector.scan.parallel import ScanRequest, scan_summaries
from inspector.scan.summary import SessionSummary
from inspector.search.detection_key import detection_key
from inspector.search.scan_cache import ScanCache, open_scan_cache
from inspector.support.gc_pause import collector_paused
from inspector.support.safe_text import one_line


def add_cache_options(parser: argparse.ArgumentParser) -> None:
    """`--no-cache` and `--cache-stats` on `scan` and `report`."""
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="read every file, taking nothing from the search index (which keeps each file's "
        "findings until it changes) and keeping nothing there",
    )
    parser.add_argument(
        "--cache-stats",
        action="store_true",
        help="say on stderr how many files were taken from the search index and how many were read",
    )


@dataclass
class CachedScan:
    """The cache a scan uses (None: it reads every file), and how many files it read."""

    cache: ScanCache | None
    read: int = 0

    def file_summaries(
        self, request: ScanRequest, only: str | None, jobs: int | None, found: list[SessionSummary]
    ) -> None:
        """Add the summary of each session of `request.path` to `found`: taken from the index,
        or read (those read before an error are added too) and kept there."""
        cache = self.cache
        with collector_paused():  # the summaries taken are many objects, kept to the end: out of its reach
            kept = cache.summaries(request.path) if cache is not None else None
        if kept is not None:
            found.extend(kept)
            return
        self.read += 1
        taken = cache.fingerprint(request.path) if cache is not None else None
        fresh: list[SessionSummary] = []
        try:
            with collector_paused():  # a long history builds many objects and frees few
                # a history is read one conversation at a time: only what the reports need is kept
                fresh.extend(scan_summaries(request, only, jobs))
        finally:
            found.extend(fresh)
        if cache is not None and taken is not None and isinstance(request.path, Path):
            cache.keep(request.path, taken, fresh)

    def read_alone(self) -> None:
        """Count a file read without the cache (one with a baseline)."""
        self.read += 1

    def close(self, stats: bool) -> None:
        """Write what is still to be kept; with `stats`, say what was taken and read."""
        if self.cache is not None:
            self.cache.close()
        if stats:
            taken = self.cache.taken if self.cache is not None else 0
            how = "" if self.cache is not None else " (the cache was not used)"
            removed = self.cache.removed if self.cache is not None else 0
            gone = f", {removed:,} gone from disk removed from it" if removed else ""
            print(
                f"inspector: cache: {taken:,} files taken from the search index, {self.read:,} read{how}{gone}",
                file=sys.stderr,
            )


def cached_scan(args: argparse.Namespace, extra: tuple[ToolSpec, ...], mapping: dict[str, str] | None) -> CachedScan:
    """The cache `scan` or `report` uses with the options `args` (and the tools and column map
    they name): none with `--no-cache` or `--session`, or when the index cannot be opened."""
    if args.no_cache or args.session is not None:
        return CachedScan(None)
    key = detection_key(args.format, extra, args.table, mapping)
    return CachedScan(open_scan_cache(key, lambda line: print(f"inspector: {one_line(line)}", file=sys.stderr)))
