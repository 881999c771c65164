"""What the agents' discovery plugins share: listing a folder one entry at a time (an entry that
cannot be followed costs only itself), a found file's date and size, a bounded look at a file's
head for its working folder, and the task folders VS Code extensions keep."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from functools import lru_cache
from json.decoder import scanstring  # type: ignore[attr-defined]  # typeshed's json.decoder omits it; the module has it
from pathlib import Path
from typing import TypeVar

from inspector.sources.discovery.contract import FoundSession, Surroundings
from inspector.support.safe_text import one_line, shown_name

HEAD_BYTES = 16 * 1024  # where a session's working folder is looked for
VALUE_BYTES = 8 * 1024  # at most this much of it (a longer one is not taken)
_Listing = TypeVar("_Listing")


def entries(folder: Path, folders: bool) -> list[tuple[Path, os.DirEntry[str]]]:
    """The sub-folders (or the regular files) of `folder`, with their paths; none when it cannot be
    listed. An entry whose kind cannot be told (a symbolic link that loops, or that cannot be
    followed) costs only itself: it is skipped, said in one line on stderr."""
    try:
        with os.scandir(folder) as listing:
            listed = list(listing)
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as error:
        _say_skipped(folder, error)
        return []
    kept = []
    for entry in listed:
        try:
            wanted = entry.is_dir() if folders else entry.is_file()
        except OSError as error:
            _say_skipped(folder / entry.name, error)
            continue
        if wanted:
            kept.append((folder / entry.name, entry))
    return kept


def found(tool: str, path: Path, entry: os.DirEntry[str], project: str) -> FoundSession:
    """The session at `path`, listed as `entry`, with its date and size (0 when it went since)."""
    try:
        status = entry.stat()
        modified, size = status.st_mtime, status.st_size
    except OSError:  # gone since it was listed: the scan will say so
        modified, size = 0.0, 0
    return FoundSession(tool, path, project, modified, size)


def found_file(tool: str, path: Path) -> FoundSession | None:
    """The one file at `path` (a history database) as a found session; None when there is none."""
    try:
        status = path.stat()
    except OSError:
        return None
    return FoundSession(tool, path, "", status.st_mtime, status.st_size) if path.is_file() else None


def while_unchanged(folder: Path, read: Callable[[Path], _Listing], empty: _Listing) -> _Listing:
    """What `read(folder)` gives, kept while the folder's entries stay as they were (its
    modification time) and read again once they change; `empty` when the folder is not there."""
    try:
        changed = folder.stat().st_mtime_ns
    except OSError:
        return empty
    listing: _Listing = _kept(read, folder, changed)
    return listing


@lru_cache(maxsize=512)  # (a project's folder each: a home rarely has more)
def _kept(read: Callable[[Path], _Listing], folder: Path, changed: int) -> _Listing:
    return read(folder)


def head(path: Path | str, limit: int = HEAD_BYTES) -> bytes:
    """The first `limit` bytes of the file (none when it cannot be read)."""
    try:
        descriptor = os.open(path, os.O_RDONLY)
    except OSError:
        return b""
    try:
        return os.read(descriptor, limit)
    except OSError:
        return b""
    finally:
        os.close(descriptor)


def first_cwd(path: str, key: str = "cwd") -> str:
    """The value of the first `"cwd": "..."` key (or `key`) in the file's head ("" when there is
    none whole).

    Inside a JSON string every quote is escaped, so `"cwd"` followed by a colon is a key. Each
    byte of the head is looked at a bounded number of times, and only the value is decoded."""
    data = head(path)
    quoted = f'"{key}"'.encode()
    start = 0
    while (at := data.find(quoted, start)) != -1:
        start = at + len(quoted)
        colon = _after_space(data, start)
        if data[colon : colon + 1] == b":":
            quote = _after_space(data, colon + 1)
            if data[quote : quote + 1] == b'"':
                try:
                    value: str = scanstring(data[quote + 1 : quote + 1 + VALUE_BYTES].decode("utf-8", "replace"), 0)[0]
                except ValueError:  # cut off by the end of the head, or badly escaped
                    return ""
                return value
    return ""


def _after_space(data: bytes, index: int) -> int:
    while index < len(data) and data[index] in b" \t\r\n":
        index += 1
    return index


def _say_skipped(path: Path, error: OSError) -> None:
    """One line on stderr for an entry of a tool's folder that cannot be read."""
    print(f"inspector: {shown_name(path)}: skipped ({one_line(error.strerror or str(error))})", file=sys.stderr)


# VS Code and the editors built on it, by the folder each keeps its user data in
EDITORS = ("Code", "Code - Insiders", "VSCodium", "Cursor", "Windsurf")


def extension_tasks_folders(around: Surroundings, extension: str) -> list[Path]:
    """The `tasks` folder an extension (`saoudrizwan.claude-dev`, ...) keeps in the global storage
    of each editor: under `$XDG_CONFIG_HOME` (`~/.config`) on Linux, `~/Library/Application
    Support` on macOS, `%APPDATA%` on Windows."""
    if around.platform == "darwin":
        base = around.home / "Library" / "Application Support"
    elif around.platform == "win32":
        base = around.variable("APPDATA") or around.home / "AppData" / "Roaming"
    else:
        base = around.variable("XDG_CONFIG_HOME") or around.home / ".config"
    return [base / editor / "User" / "globalStorage" / extension / "tasks" for editor in EDITORS]


def extension_tasks(tool: str, root: Path) -> Iterator[FoundSession]:
    """Each task's `api_conversation_history.json` in an extension's `tasks` folder (no project:
    the task's working folder is kept in the extension's state, not beside it)."""
    for folder, _ in entries(root, folders=True):
        for path, entry in entries(folder, folders=False):
            if entry.name == API_HISTORY:
                yield found(tool, path, entry, "")


API_HISTORY = "api_conversation_history.json"
