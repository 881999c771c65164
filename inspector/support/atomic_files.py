"""Files that appear whole or not at all: each is written under a hidden temporary name beside
its real one (`.NAME.XXXXXXXX.tmp`), flushed to disk, then renamed to its real name and its
directory flushed too, so a crash, a kill or a full disk never leaves half a file under a real
name. A failure removes the temporary file; only a process killed outright (`kill -9`, a power
cut) can leave one, hidden and never under a real name.
"""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Callable
from pathlib import Path

# link(2) refused by the file system itself (FAT, some network mounts): fall back to a rename
_NO_HARD_LINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK}


def file_mode(path: Path) -> int:
    """The permission bits a file written at `path` should have: those it has, or the usual ones
    (0666 less the umask) for a new file, not a temporary file's 0600."""
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def temporary_beside(path: Path) -> Path:
    """A new, empty, hidden file beside `path`, only its owner's to read (the caller fills it)."""
    import tempfile  # imported here: only writing needs it, and reading a session is the usual run

    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    return Path(name)


def staged(path: Path, fill: Callable[[Path], object], mode: int) -> Path:
    """A temporary file beside `path`, filled by `fill(temporary)`, given `mode` and flushed to
    disk: ready for `land`. On any failure it is removed and the error raised."""
    temporary = temporary_beside(path)
    try:
        fill(temporary)
        os.chmod(temporary, mode)
        sync_file(temporary)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return temporary


def staged_bytes(path: Path, data: bytes, mode: int) -> Path:
    """A temporary file beside `path` holding `data` (see `staged`)."""
    return staged(path, lambda temporary: temporary.write_bytes(data), mode)


def land(temporary: Path, path: Path, replace: bool = True) -> None:
    """Rename `temporary` to `path` and flush the directory. Unless `replace`, `path` must not
    exist: whatever appears there meanwhile is never replaced (`FileExistsError`). If it cannot
    land, the temporary file is removed."""
    try:
        if replace:
            os.replace(temporary, path)
        else:
            _link_new(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    sync_directory(path.parent)


def kept_aside(path: Path) -> Path | None:
    """A second name for the file at `path` (a hard link, else a flushed copy), to put it back
    with if what replaces it must be undone; None when there is no such file. The caller removes it."""
    if not os.path.lexists(path):
        return None
    aside = temporary_beside(path)
    aside.unlink()
    try:
        os.link(path, aside, follow_symlinks=False)
    except OSError:  # no hard links here: a copy, flushed
        shutil.copy2(path, aside)
        sync_file(aside)
    return aside


def sync_file(path: Path) -> None:
    """Flush the file at `path` to disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def sync_directory(directory: Path) -> None:
    """Flush a directory's entries (a rename in it) to disk, where the system allows it."""
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError as exc:  # some file systems cannot flush a directory: the rename stands
        if exc.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EBADF):
            raise
    finally:
        os.close(fd)


def _link_new(temporary: Path, path: Path) -> None:
    """Give `temporary` the name `path` only if nothing has that name (a hard link, then the
    temporary name removed); where links are refused, a rename after checking."""
    try:
        os.link(temporary, path)
    except OSError as exc:
        if exc.errno not in _NO_HARD_LINKS:
            raise
        if os.path.lexists(path):
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(path)) from None
        os.replace(temporary, path)
        return
    os.unlink(temporary)
