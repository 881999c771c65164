"""A file's findings as its review names them (`inspector.review.anchors.FindingKey`, one tuple
per session), as the index keeps them beside its summaries: what the app's picker needs to say
where each session's review stands without reading the file again. Kept as compressed JSON (each
key a list of its fields): unpacking makes only `FindingKey`s, whatever the blob holds.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

from inspector.review.anchors import FindingKey, anchored_keys

if TYPE_CHECKING:
    from inspector.scan.scanner import ScanResult

Anchors = list[tuple[FindingKey, ...]]  # each session's findings' keys, in the file's order


def review_anchors(result: ScanResult) -> list[FindingKey]:
    """The keys a review names the findings of the scanned session `result` by."""
    from inspector.review.review_file import finding_keys  # (a scan taking from the cache never loads it)

    return anchored_keys(result.session, result.findings, finding_keys(result.findings))


def packed_anchors(anchors: Sequence[Sequence[FindingKey]]) -> bytes:
    """`anchors` as the index keeps them."""
    sessions = [
        [[key.message, key.content, key.before, key.after, key.place, key.occurrence, key.turn] for key in keys]
        for keys in anchors
    ]
    return zlib.compress(json.dumps(sessions, ensure_ascii=True).encode("ascii"), 1)


def unpacked_anchors(data: bytes | None) -> Anchors | None:
    """The keys `packed_anchors` kept in `data`; None when there are none or they cannot be read."""
    if data is None:
        return None
    try:
        sessions = json.loads(zlib.decompress(data))
        return [tuple(_key(*fields) for fields in keys) for keys in sessions]
    except (zlib.error, ValueError, TypeError):  # a blob not written by `packed_anchors`
        return None


def _key(
    message: str | None, content: str, before: str | None, after: str | None, place: str, occurrence: int, turn: int
) -> FindingKey:
    """One key from its fields, each checked for its type (else a `TypeError`)."""
    texts = (content, place)
    optional = (message, before, after)
    if not all(isinstance(text, str) for text in texts) or not all(
        text is None or isinstance(text, str) for text in optional
    ):
        raise TypeError("not a finding's key")
    if type(occurrence) is not int or type(turn) is not int:
        raise TypeError("not a finding's key")
    return FindingKey(message, content, before, after, place, occurrence, turn)
