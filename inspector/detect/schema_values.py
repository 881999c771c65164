"""Argument values against JSON-schema types: the type tests, the lossless conversions a repair
may make, enum normalisation, and how values and their places are named in messages."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import Any

from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.safe_text import preview

JSON_TYPES: dict[str, Callable[[Any], bool]] = {  # each JSON Schema type, and its test of a value
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
    "null": lambda v: v is None,
}
_INTEGER = lazy_pattern(r"-?(?:0|[1-9]\d*)")
_NUMBER = lazy_pattern(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")


def convert(value: Any, kind: str) -> tuple[Any] | None:
    """`value` converted without loss to JSON type `kind`, as a 1-tuple, or None."""
    if isinstance(value, str):
        if kind == "integer" and _INTEGER.fullmatch(value):
            return (int(value),)
        if kind == "number" and _NUMBER.fullmatch(value):
            return (json.loads(value),)
        if kind == "boolean" and value in ("true", "false"):
            return (value == "true",)
        if kind in ("object", "array") and value.lstrip()[:1] in "{[" and value.strip():
            try:
                loaded = json.loads(value)
            except (ValueError, RecursionError):
                loaded = None
            if JSON_TYPES[kind](loaded):
                return (loaded,)
    if kind == "string" and JSON_TYPES["number"](value):
        return (json.dumps(value),)
    if kind == "array" and not isinstance(value, list):
        return ([value],)
    return None


def normalise_enum(value: str, allowed: Iterable[Any]) -> str | None:
    """The one allowed value equal to `value` ignoring case, punctuation and space, or None."""

    def squash(text: str) -> str:
        return re.sub(r"[\W_]+", "", text).casefold()

    matches = {
        a for a in allowed if isinstance(a, str) and (a.casefold() == value.casefold() or squash(a) == squash(value))
    }
    return matches.pop() if len(matches) == 1 and value not in matches else None


def canonical(value: Any) -> str:
    """A key telling JSON values apart (`1`, `1.0` and `true` are all different)."""
    return json.dumps(value, sort_keys=True, default=repr)


def show_value(value: Any) -> str:
    """A value as a JSON literal ("Metric", 42, [1, 2]), cut to 40 characters."""
    return preview(json.dumps(value, ensure_ascii=False, default=repr), 41)


def show_path(path: Iterable[Any]) -> str:
    """Where a value is in the arguments: `'units'`, `'options'['mode']`, or "the arguments"."""
    parts = list(path)
    return (repr(parts[0]) + "".join(f"[{p!r}]" for p in parts[1:])) if parts else "the arguments"


def show_types(value: Any) -> str:
    """A schema's `type` in words: "integer" or "integer or null"."""
    return " or ".join(map(str, value)) if isinstance(value, list) else str(value)
