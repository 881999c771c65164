"""A file's session summaries (`inspector.scan.summary`) as the index keeps them: pickled, so that
what comes back is equal to what was kept in every field (a tuple stays a tuple, a `Path` a
`Path`), and compressed. The classes with slots are pickled as a call of the class with their
fields (`_BY_FIELDS`): made again by their `__init__`, a third faster than field by field.

Unpacking admits only the classes a summary is made of (`_ADMITTED`): a blob naming any other
class (one a session's record holds, or one written into the index by another hand) is not
taken, and the file is read again, as it is when a blob cannot be read at all.
"""

from __future__ import annotations

import io
import pickle
import zlib
from collections.abc import Sequence
from dataclasses import fields
from operator import attrgetter
from typing import Any

from inspector.model import ToolCall, ToolResult, Turn
from inspector.scan.summary import SessionSummary

MAX_BYTES = 64 * 2**20  # a file's summaries packed larger than this are not kept (it is read again)
_ADMITTED = frozenset(
    {
        ("inspector.scan.summary", "SessionSummary"),
        ("inspector.scan.rates", "Rates"),
        ("inspector.model", "Finding"),
        ("inspector.model", "Fix"),
        ("inspector.model", "Turn"),
        ("inspector.model", "ToolCall"),
        ("inspector.model", "ToolResult"),
        ("inspector.model", "ServerUrl"),
        ("collections", "Counter"),
        ("pathlib", "PosixPath"),
        ("pathlib._local", "PosixPath"),
        ("pathlib._local", "WindowsPath"),
        ("pathlib", "WindowsPath"),
        ("pathlib", "PurePosixPath"),
        ("pathlib", "PureWindowsPath"),
        ("builtins", "set"),
        ("builtins", "frozenset"),
    }
)


# each class pickled as a call of itself with its fields (each has several: a tuple of them)
_BY_FIELDS = {
    kind: attrgetter(*(field.name for field in fields(kind))) for kind in (SessionSummary, Turn, ToolCall, ToolResult)
}


def packed(summaries: Sequence[SessionSummary]) -> bytes | None:
    """`summaries` as the index keeps them; None when they cannot be (a value that cannot be
    pickled, or more than `MAX_BYTES`)."""
    pickled = io.BytesIO()
    try:
        _Pickler(pickled, pickle.HIGHEST_PROTOCOL).dump(list(summaries))
        data = zlib.compress(pickled.getbuffer(), 1)
    except (pickle.PicklingError, TypeError, AttributeError, ValueError, RecursionError):
        return None
    return data if len(data) <= MAX_BYTES else None


def unpacked(data: bytes) -> list[SessionSummary] | None:
    """The summaries `packed` kept in `data`; None when they cannot be taken (see the module's docstring)."""
    try:
        summaries = _Unpickler(io.BytesIO(zlib.decompress(data))).load()
    except Exception:  # a blob that is not one `packed` wrote, whatever breaks in it: read the file again
        return None
    if not isinstance(summaries, list) or not all(isinstance(summary, SessionSummary) for summary in summaries):
        return None
    return summaries


class _Pickler(pickle.Pickler):
    """A pickler that keeps an instance of the classes of `_BY_FIELDS` as a call of its class."""

    def reducer_override(self, obj: Any) -> Any:
        values = _BY_FIELDS.get(type(obj))
        return NotImplemented if values is None else (type(obj), values(obj))


class _Unpickler(pickle.Unpickler):
    """An unpickler that makes only the classes a summary is made of."""

    def find_class(self, module: str, name: str) -> type:
        if (module, name) not in _ADMITTED:
            raise pickle.UnpicklingError(f"{module}.{name} is not part of a session's summary")
        found: type = super().find_class(module, name)
        return found
