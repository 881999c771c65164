"""The search index as the picker's memory of the person's session files
(`inspector.search.scan_cache`): each file's sessions' summaries with their findings' keys in a
review, taken while the file is as it was when they were kept, and kept when the picker reads it.

The index never stops the picker nor changes what it shows: one that cannot be opened, read or
written is left alone, and the files are read as without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from inspector.search.scan_cache import ScanCache
    from inspector.tui.conversations import ReadOptions


def open_kept_files(named: ReadOptions) -> ScanCache | None:
    """What the index keeps of files read as `named` says (None when it cannot be opened)."""
    from inspector.search.detection_key import detection_key  # loaded by the scan's worker, not the list
    from inspector.search.scan_cache import open_scan_cache

    key = detection_key(named.format_name, named.extra_tools, named.table, named.mapping)
    return open_scan_cache(key, _say_nothing)


def _say_nothing(_: str) -> None:
    """The picker reads the files when the index cannot be used: nothing to tell the person."""
