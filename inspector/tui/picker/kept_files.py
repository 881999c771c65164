"""The search index as the picker's memory of the person's session files
(`inspector.search.scan_cache`): each file's sessions' summaries with their findings' keys in a
review, taken while the file is as it was when they were kept, and kept when the picker reads it.

The index never stops the picker nor changes what it shows: one that cannot be opened, read or
written is left alone, and the files are read as without it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from inspector.sources.location import is_sqlite
from inspector.tui.picker.rows import RowTarget, Scanned, kept_sessions

if TYPE_CHECKING:
    from inspector.model import Location
    from inspector.search.scan_cache import ScanCache
    from inspector.tui.conversations import ReadOptions
    from inspector.tui.picker.view import ListedRow


def open_kept_files(named: ReadOptions) -> ScanCache | None:
    """What the index keeps of files read as `named` says (None when it cannot be opened)."""
    from inspector.search.detection_key import detection_key  # loaded by the scan's worker, not the list
    from inspector.search.scan_cache import open_scan_cache

    key = detection_key(named.format_name, named.extra_tools, named.table, named.mapping)
    return open_scan_cache(key, _say_nothing)


def kept_rows(kept: ScanCache | None, path: Location) -> list[tuple[RowTarget, ListedRow, Scanned]] | None:
    """The rows of the sessions of the file at `path` from the index (`kept`), when it holds the
    file as it is now with its findings' keys; None when the file must be read (a history
    database's conversations are always listed from it)."""
    if kept is None or not isinstance(path, Path) or is_sqlite(path):
        return None
    held = kept.kept_with_anchors(path)
    return kept_sessions(path, *held) if held is not None else None


def _say_nothing(_: str) -> None:
    """The picker reads the files when the index cannot be used: nothing to tell the person."""
