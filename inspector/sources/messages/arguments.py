"""A tool call's arguments as a storage keeps them: parsed from what is stored (an object, or a
JSON string: `parse_arguments`), and stored as OpenAI-style formats store them (`arguments_as_json`)."""

from __future__ import annotations

import json
from typing import Any

# One JSON value at an index: (value, end), StopIteration if none. typeshed's `JSONDecoder` does
# not declare `scan_once`, which its `__init__` sets (and `json.scanner.make_scanner`'s stub wants
# a scanner, not a decoder, as its context).
_SCAN_JSON = json.JSONDecoder().scan_once  # type: ignore[attr-defined]


def arguments_as_json(arguments: Any) -> str:
    """Arguments as the JSON string OpenAI-style formats store."""
    return arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)


def parse_arguments(raw: Any) -> dict[str, Any] | None:
    """Parsed arguments from a stored value: an object as it is, a JSON string parsed strictly.

    Anything that is not a JSON object gives None (detectors of malformed arguments look at the
    raw value themselves).
    """
    if isinstance(raw, dict):
        return raw
    if isinstance(raw, str):
        if raw.startswith("{"):  # the common case: one C call, no whole-text checks (tens of thousands per file)
            scanned: dict[str, Any]  # what a text starting with "{" holds first: an object
            try:
                scanned, end = _SCAN_JSON(raw, 0)
            except (ValueError, StopIteration, RecursionError):  # ValueError: an integer too long to read too
                return None
            if end == len(raw):
                return scanned
        try:
            value = json.loads(raw) if raw.strip() else {}
        except (ValueError, RecursionError):
            return None
        return value if isinstance(value, dict) else None
    if raw is None:
        return {}
    return None
