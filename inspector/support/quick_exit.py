"""Ending the command line's process without freeing, one object at a time, the session it read last.

A 60 MB session read into memory is some hundreds of thousands of dicts, lists and strings;
Python frees each one when the last reference to it goes, which takes about a tenth of a second
(6 to 9% of the whole scan) for nothing: the process ends right after. The command line, and
only it, arms this (`armed`); a scan then hands the file it read to `hold` instead of letting it
go, and the command line ends with `leave`: the output flushed, the process ends at once, as the
operating system frees its memory whole. Nothing else is skipped that the commands need: their
files are written and closed, their worker processes stopped and their caches closed before
they return (each in its own `finally`), and the package registers no exit handler. Only a file
read whole is held (never a history read one session at a time, whose connection is closed as
usual), and only the last one: each file held lets the one before it go, so a scan of many files
holds no more than one more session than it did.
"""

from __future__ import annotations

import os
import sys
from contextlib import suppress
from typing import Any, NoReturn

_held: list[Any] = []
_armed = False


def arm() -> None:
    """Let `hold` keep what it is given until `leave` (the command line's entry points call this)."""
    global _armed
    _armed = True


def hold(value: Any) -> None:
    """Keep `value` (and so what it refers to) until the process ends, in place of the value held
    before, when armed; else do nothing."""
    if _armed:
        _held[:] = [value]


def leave(code: int) -> NoReturn:
    """End the process with exit `code`: at once, once the standard streams are flushed, when
    something is held; else as Python ends one."""
    if not _held:
        raise SystemExit(code)
    for stream in (sys.stdout, sys.stderr):
        with suppress(OSError, ValueError):  # a closed pipe (`| head`), or a stream closed already
            stream.flush()
    os._exit(code)
