"""A turn's record as the file stores it, as text a person can read: indented JSON, bounded.

`Turn.raw` keeps the record as loaded (its ids and every key no reader uses); a huge record (a
tool result holding a whole file) is written out only up to a limit, without encoding the rest.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

RAW_LIMIT = 200 * 1024  # characters shown of one record


@dataclass(frozen=True)
class RawText:
    """The record as indented JSON (its first `limit` characters), and whether it was cut there."""

    text: str
    cut: bool


def raw_record_text(raw: Any, limit: int = RAW_LIMIT) -> RawText:
    """`raw` as indented JSON (non-ASCII kept, values JSON cannot hold written as text), stopping
    once `limit` characters are written: the time taken does not grow with the record's size."""
    encoder = json.JSONEncoder(indent=2, ensure_ascii=False, default=_as_text)
    pieces: list[str] = []
    size = 0
    for piece in encoder.iterencode(raw):
        pieces.append(piece)
        size += len(piece)
        if size > limit:
            return RawText("".join(pieces)[:limit], True)
    return RawText("".join(pieces), False)


def _as_text(value: Any) -> str:
    """A value JSON cannot hold (bytes from a database, a date), as text."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return f"<{len(value)} bytes>"
    return str(value)
