"""The review file's text: JSON with each decision, each execution and each export on a line of
its own, so a person can read and grep it, and a save of thousands of decisions stays quick (an
indented layout is written by Python's slow encoder, not the C one). Its revision comes first: a
random token each save renews, which tells another inspector whether the file changed since it
last read or wrote it (`merge`) from its first bytes, without reading the rest.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any

from inspector.support.lazy_pattern import lazy_pattern

_HEAD_BYTES = 256  # the version and the revision, written first, always fit
_REVISION = lazy_pattern(r'"revision": "([0-9a-f]{32})"')
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "))  # made once: thousands of entries


def new_revision() -> str:
    """A fresh revision token."""
    return secrets.token_hex(16)


def review_text(document: dict[str, Any]) -> str:
    """`document` as JSON, one line per top-level key, and one per item of a list value."""
    keys = list(document)
    lines = ["{"]
    for number, key in enumerate(keys):
        comma = "," if number + 1 < len(keys) else ""
        value = document[key]
        if isinstance(value, list) and value:
            lines.append(f" {json.dumps(key)}: [")
            lines.extend(
                f"  {_compact(item)}{',' if place + 1 < len(value) else ''}" for place, item in enumerate(value)
            )
            lines.append(f" ]{comma}")
        else:
            lines.append(f" {json.dumps(key)}: {_compact(value)}{comma}")
    return "\n".join(lines) + "\n}\n"


def revision_of(path: Path) -> str | None:
    """The revision of the review file at `path` as its first bytes say; None when it has none (an
    earlier version's file) or cannot be read (the caller reads it whole, and says why)."""
    try:
        with open(path, "rb") as file:
            head = file.read(_HEAD_BYTES).decode("utf-8", "replace")
    except OSError:
        return None
    found = _REVISION.search(head)
    return found.group(1) if found else None


def _compact(value: Any) -> str:
    return _ENCODER.encode(value)
