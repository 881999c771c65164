"""The blob tree of a Cursor CLI chat store: which message blobs a root blob reaches, in order.

A tree blob is a protobuf message whose field 1, repeated, holds the raw SHA-256 of each child
blob in order (its other fields, such as the workspace's URI, are skipped); a child is a message
blob (JSON, starting with `{`) or another tree blob. The walk is depth first, in the children's
order, with an explicit stack: each tree blob is expanded once (one named again, as in a cycle,
is counted and not followed), so the work is linear in the bytes of the trees reached. A
message blob may be named more than once (the same message said twice has one blob).

The children of a tree blob are read from the database in batches, one query each."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from inspector.sources.sql.statements import Queries

CHILD_FIELD = 1
DIGEST_BYTES = 32
BATCH = 500  # ids asked for in one query (under SQLite's default limit of bound parameters)
VARINT_BYTES = 10
NOT_A_TREE = "tree blobs that are not a protobuf message of child ids, not followed"
MISSING = "blobs the tree names that are not in the database"
AGAIN = "tree blobs named again (a cycle), followed once"


def messages_reached(db: Queries, root_id: str, problems: Counter[str]) -> Iterator[tuple[str, bytes]]:
    """Each message blob (`id, data`) the tree from `root_id` reaches, in order; what cannot be
    followed is counted in `problems`."""
    blobs: dict[str, bytes] = dict(_fetched(db, [root_id]))
    expanded: set[str] = set()
    stack: list[Iterator[str]] = [iter([root_id])]
    while stack:
        blob_id = next(stack[-1], None)
        if blob_id is None:
            stack.pop()
            continue
        data = blobs.get(blob_id)
        if data is None:
            problems[MISSING] += 1
        elif data[:1] == b"{":
            yield blob_id, data
        elif blob_id in expanded:
            problems[AGAIN] += 1
        else:
            expanded.add(blob_id)
            children = child_ids(data)
            if children is None:
                problems[NOT_A_TREE] += 1
                continue
            blobs.update(_fetched(db, [child for child in dict.fromkeys(children) if child not in blobs]))
            stack.append(iter(children))


def child_ids(data: bytes) -> list[str] | None:
    """The ids (hex) a tree blob's field 1 holds, in order; None when `data` is not a protobuf
    message or a field 1 is not a 32-byte digest."""
    ids: list[str] = []
    position, end = 0, len(data)
    while position < end:
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


def _fetched(db: Queries, ids: list[str]) -> Iterator[tuple[str, bytes]]:
    """The blobs of `ids` that are in the database, a batch of ids a query."""
    for start in range(0, len(ids), BATCH):
        batch = ids[start : start + BATCH]
        marks = ", ".join("?" * len(batch))
        for blob_id, data in db.rows(f"SELECT id, data FROM blobs WHERE id IN ({marks})", batch):
            if isinstance(blob_id, str):
                yield blob_id, bytes(data) if isinstance(data, (bytes, bytearray, memoryview)) else str(data).encode()
