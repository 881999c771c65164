"""What the findings kept in the index were found with: a digest of the inspector's version, of
its modules (each one's path, size and modification time, so that an inspector changed in place
without a new version is one too) and of the options that change what is read or found (a
format, extra tool definitions, a database's table and its column map). Findings kept under
another key are never taken: the file is read again."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import inspector
from inspector.model import ToolSpec


def detection_key(
    format_name: str | None = None,
    extra_tools: tuple[ToolSpec, ...] = (),
    table: str | None = None,
    mapping: dict[str, str] | None = None,
) -> str:
    """The key of findings found with these options by this inspector (the default: none given)."""
    options = repr((format_name, extra_tools, table, sorted(mapping.items()) if mapping is not None else None))
    return hashlib.blake2b(f"{_inspector_stamp()}\n{options}".encode(), digest_size=16).hexdigest()


@cache
def _inspector_stamp() -> str:
    """The inspector's version and the digest of its modules' paths, sizes and modification times."""
    root = Path(inspector.__file__).parent
    digest = hashlib.blake2b(digest_size=16)
    for path, size, mtime_ns in sorted(_modules(str(root))):
        digest.update(f"{os.path.relpath(path, root)}\0{size}\0{mtime_ns}\n".encode())
    return f"{inspector.__version__} {digest.hexdigest()}"


def _modules(folder: str) -> Iterator[tuple[str, int, int]]:
    """Each Python module under `folder`: its path, size and modification time."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        try:
            if entry.is_dir(follow_symlinks=False):
                if entry.name != "__pycache__":
                    yield from _modules(entry.path)
            elif entry.name.endswith(".py"):
                status = entry.stat()
                yield entry.path, status.st_size, status.st_mtime_ns
        except OSError:
            continue
