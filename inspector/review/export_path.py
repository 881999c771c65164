"""Where a review's export goes unless the person says otherwise."""

from __future__ import annotations

from pathlib import Path

from inspector.model import Location, ServerUrl
from inspector.review.review_file import database_file_name
from inspector.sources.files.opencode_storage import is_storage_session, storage_folder


def default_export_path(path: Location, several: bool, to: str | None = None) -> Path:
    """`NAME.fixed.EXT` (`NAME.fixed.N.EXT` if that exists already) beside the input `path` (a
    session of OpenCode's older storage: `STORAGE.fixed`, a new storage folder, beside its folder), or in
    the current folder when the input is a bundled sample or kept in a tool's own session folder
    (where the tool would list the export as one of its sessions), or a server's database (named
    after the database). Into the format `to`: `NAME.fixed.TO.json` (`.jsonl` for `several` sessions)."""
    from inspector.sources.discovery import kept_by_a_tool  # (every agent's places: imported when exporting)

    if isinstance(path, ServerUrl):  # its database's name, in the current folder
        folder, name = Path.cwd(), database_file_name(path)
    else:  # a session of a storage kept as one file per record: named after the storage's folder
        anchor = storage_folder(path) if is_storage_session(path) else path
        folder, name = Path.cwd() if kept_by_a_tool(path) else anchor.parent, anchor.name
    stem, suffix = name.split(".", 1) if "." in name else (name, "")
    if to is not None:
        suffix = f"{to}.json" + ("l" if several else "")
    dot = f".{suffix}" if suffix else ""
    candidate, number = folder / f"{stem}.fixed{dot}", 1
    while candidate.exists():
        candidate, number = folder / f"{stem}.fixed.{number}{dot}", number + 1
    return candidate
