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
from typing import TYPE_CHECKING

from inspector.model import Location, ToolSpec
from inspector.scan.summary import SessionSummary
from inspector.support.counted_words import counted
from inspector.support.gc_pause import collector_paused
from inspector.support.safe_text import one_line

if TYPE_CHECKING:
    from inspector.search.fingerprint import Fingerprint
    from inspector.search.scan_cache import ScanCache


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

    def taken(self, path: Location) -> list[SessionSummary] | None:
        """The summaries of the sessions of the file at `path` kept in the index, when it has not
        changed since; else None, and the file is counted as read."""
        if self.cache is not None:
            with collector_paused():  # the summaries taken are many objects, kept to the end: out of its reach
                kept = self.cache.summaries(path)
            if kept is not None:
                return kept
        self.read += 1
        return None

    def fingerprint(self, path: Location) -> Fingerprint | None:
        """What the file at `path` is before it is read, to keep what is read of it (None: nothing is kept)."""
        return self.cache.fingerprint(path) if self.cache is not None else None

    def keep(self, path: Location, taken: Fingerprint | None, fresh: list[SessionSummary]) -> None:
        """Keep in the index the summaries read from the file at `path`, as it was when `taken`."""
        if self.cache is not None and taken is not None and isinstance(path, Path):
            self.cache.keep(path, taken, fresh)

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
                f"inspector: cache: {counted(taken, 'file', 'files')} taken from the search index, {self.read:,} read{how}{gone}",
                file=sys.stderr,
            )


def cached_scan(args: argparse.Namespace, extra: tuple[ToolSpec, ...], mapping: dict[str, str] | None) -> CachedScan:
    """The cache `scan` or `report` uses with the options `args` (and the tools and column map
    they name): none with `--no-cache` or `--session`, or when the index cannot be opened."""
    if args.no_cache or args.session is not None:
        return CachedScan(None)
    from inspector.search.detection_key import detection_key  # (the index's modules load only when it is used)
    from inspector.search.scan_cache import open_scan_cache

    key = detection_key(args.format, extra, args.table, mapping)
    return CachedScan(open_scan_cache(key, lambda line: print(f"inspector: {one_line(line)}", file=sys.stderr)))
