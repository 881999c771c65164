"""Reading a history's rows conversation by conversation: rows already ordered by conversation
grouped one conversation at a time (`grouped`), two such streams joined (`merge_groups`: a
conversation's messages and its calls, read by two queries, neither held whole), the order a
database sorts a column's values in (`stored_order`), and a JSON column's value (`json_or_none`,
`decoded_json`)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from itertools import groupby
from operator import itemgetter
from typing import Any

from inspector.sources.sql.statements import Row


class Unreadable:
    """What `decoded_json` gives for a column it cannot read, with why, in words that follow "is"."""

    def __init__(self, why: str) -> None:
        self.why = why


NOT_JSON = Unreadable("not JSON")
NESTED_TOO_DEEPLY = Unreadable("nested too deeply to read")


def grouped(rows: Iterable[Row], key: int) -> Iterator[tuple[Any, list[Row]]]:
    """Rows already ordered by their column `key` (an index), one group (key, rows) at a time."""
    for value, group in groupby(rows, key=itemgetter(key)):
        yield value, list(group)


def merge_groups(
    primary: Iterable[tuple[Any, list[Row]]], secondary: Iterable[tuple[Any, list[Row]]]
) -> Iterator[tuple[Any, list[Row], list[Row]]]:
    """Join two group streams the database ordered the same way by their keys, the secondary's
    keys being among the primary's (its rows joined to the primary's table): each primary group
    with the secondary group of the same key (or an empty list). Neither stream is held whole, and
    only keys' equality is asked, never their order (a server's collation may order text its own way)."""
    pending = iter(secondary)
    current = next(pending, None)
    for key, rows in primary:
        if current is not None and current[0] == key:
            yield key, rows, current[1]
            current = next(pending, None)
        else:
            yield key, rows, []


def stored_order(value: Any) -> tuple[int, Any]:
    """A sort key putting values in a database's order: NULL first, then numbers, then text (by
    code point, as SQLite's binary collation orders UTF-8), then blobs; a server's typed values
    (timestamps: one type per column) after them, in their own order."""
    if value is None:
        return (0, 0)
    if isinstance(value, (int, float)):
        return (1, value)
    if isinstance(value, str):
        return (2, value)
    return (3, bytes(value)) if isinstance(value, (bytes, memoryview)) else (4, value)


def json_or_none(text: Any) -> Any:
    """The JSON value in `text`, or None when it is not a string of JSON (or is nested too deeply
    to read: a hostile row is a row not read, never a crash)."""
    try:
        return json.loads(text) if isinstance(text, str) else None
    except (ValueError, RecursionError):
        return None


def decoded_json(text: Any) -> Any:
    """The JSON value `text` holds (`null` included), or why it holds none: `NOT_JSON`, or
    `NESTED_TOO_DEEPLY` (a hostile row is a row not read, never a crash)."""
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return NOT_JSON
    except RecursionError:
        return NESTED_TOO_DEEPLY
