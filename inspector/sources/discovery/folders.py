"""What the agents' discovery plugins share: listing a folder one entry at a time (an entry that
cannot be followed costs only itself), a found file's date and size, and a bounded look at a file's
head for its working folder."""

from __future__ import annotations

import os
import sys
from json.decoder import scanstring  # type: ignore[attr-defined]  # typeshed's json.decoder omits it; the module has it
from pathlib import Path

from inspector.sources.discovery.contract import FoundSession
from inspector.support.safe_text import one_line, shown_name

HEAD_BYTES = 16 * 1024  # where a session's working folder is looked for
VALUE_BYTES = 8 * 1024  # at most this much of it (a longer one is not taken)


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
