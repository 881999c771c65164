"""The blob tree of a Cursor CLI chat store: which message blobs a root blob reaches, in order.

A tree blob is a protobuf message whose field 1, repeated, holds the raw SHA-256 of each child
blob in order (its other fields, such as the workspace's URI, are skipped); a child is a message
blob (JSON, starting with `{`) or another tree blob. The walk is depth first, in the children's
order, with an explicit stack: each tree blob is expanded once (one named again, as in a cycle,
is counted and not followed), so the work is linear in the bytes of the trees reached. A
message blob may be named more than once (the same message said twice has one blob).

The message blobs are read in one pass over the table (a store holds one chat), only their ids
when counting them; a tree blob is read by its id when the walk reaches it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from inspector.sources.sql.statements import Queries
from inspector.support.lazy_pattern import lazy_pattern

CHILD_FIELD = 1
DIGEST_BYTES = 32
VARINT_BYTES = 10
NOT_A_TREE = (  # what one and several are called, in a session's problems
    "tree blob that is not a protobuf message of child ids, not followed",
    "tree blobs that are not a protobuf message of child ids, not followed",
)
MISSING = ("blob the tree names that is not in the database", "blobs the tree names that are not in the database")
AGAIN = ("tree blob named again (a cycle), followed once", "tree blobs named again (a cycle), followed once")
CHILDREN_RUN = lazy_pattern(rb"(?:\x0a\x20[\x00-\xff]{32})*")  # field 1 of 32 bytes, again and again
IS_MESSAGE = "substr(data, 1, 1) = X'7B'"  # a JSON object's first byte, `{`


def messages_reached(
    db: Queries, root_id: str, problems: Counter[tuple[str, str]], count_only: bool = False
) -> Iterator[tuple[str, bytes]]:
    """Each message blob (`id, data`) the tree from `root_id` reaches, in order; what cannot be
    followed is counted in `problems` (by what one and several of it are called). With `count_only`, a message's data is only its first byte."""
    if count_only:
        messages: dict[str, Any] = dict.fromkeys(
            (i for (i,) in db.rows(f"SELECT id FROM blobs WHERE {IS_MESSAGE}")), b"{"
        )
    else:
        messages = dict(db.rows(f"SELECT id, data FROM blobs WHERE {IS_MESSAGE}"))
    expanded: set[str] = set()
    stack: list[Iterator[str]] = [iter([root_id])]
    while stack:
        blob_id = next(stack[-1], None)
        if blob_id is None:
            stack.pop()
            continue
        data = messages.get(blob_id)
        if data is not None:
            yield blob_id, data
            continue
        if blob_id in expanded:
            problems[AGAIN] += 1
            continue
        data = _blob(db, blob_id)
        if data is None:
            problems[MISSING] += 1
        elif data[:1] == b"{":  # a message stored as text
            yield blob_id, data
        else:
            expanded.add(blob_id)
            children = child_ids(data)
            if children is None:
                problems[NOT_A_TREE] += 1
            else:
                stack.append(iter(children))


def child_ids(data: bytes) -> list[str] | None:
    """The ids (hex) a tree blob's field 1 holds, in order; None when `data` is not a protobuf
    message or a field 1 is not a 32-byte digest."""
    ids: list[str] = []
    position, end = 0, len(data)
    while position < end:
        run = CHILDREN_RUN.match(data, position)
        if run is not None and run.end() > position:  # the common case, read in one go
            ids.extend(data[at + 2 : at + 34].hex() for at in range(position, run.end(), 34))
            position = run.end()
            continue
        key, position = _varint(data, position)
        if key is None:
            return None
        number, wire = key >> 3, key & 7
        if wire == 0:
            skipped, position = _varint(data, position)
            if skipped is None:
                return None
        elif wire == 1 or wire == 5:
            position += 8 if wire == 1 else 4
        elif wire == 2:
            length, position = _varint(data, position)
            if length is None or position + length > end:
                return None
            if number == CHILD_FIELD:
                if length != DIGEST_BYTES:
                    return None
                ids.append(data[position : position + length].hex())
            position += length
        else:
            return None
    return ids if position == end else None


def _varint(data: bytes, position: int) -> tuple[int | None, int]:
    """The varint at `position` and where it ends; None when it is cut off or too long."""
    value = 0
    for shift in range(0, 7 * VARINT_BYTES, 7):
        if position >= len(data):
            return None, position
        byte = data[position]
        position += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, position
    return None, position


def _blob(db: Queries, blob_id: str) -> bytes | None:
    """The data of one blob, as bytes; None when there is no such blob."""
    for (data,) in db.rows("SELECT data FROM blobs WHERE id = ?", [blob_id]):
        if isinstance(data, (bytes, bytearray, memoryview)):
            return bytes(data)
        return str(data).encode()
    return None
