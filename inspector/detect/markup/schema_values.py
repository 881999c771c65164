"""Recovered arguments typed by the tool's schema, and only by it.

A value is changed only when the tool's schema gives its parameter a type the value is not, and
the text reads as that type: `"3"` for an integer is 3, `"true"` for a boolean is True, `"null"`
for null is None, and for an object or an array, JSON or a Python literal (`{'category': 'books'}`,
read with `ast`, never run). Text that reads as none of the parameter's types stays as written, and
so does every value of a tool the catalogue does not know, or of a parameter its schema does not
type: the repair never guesses a type the model did not write. Each change is recorded (`Coercion`),
for the finding to say what the repair changed.
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any, NamedTuple

from inspector.catalogue import Catalogue
from inspector.detect.markup.literals import NotJson, argument_value

_INTEGER = re.compile(r"-?\d+")
_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_WORDS: dict[str, dict[str, Any]] = {"boolean": {"true": True, "false": False}, "null": {"null": None, "none": None}}
_NO_VALUE = object()  # what a text that does not read as a type gives


class Coercion(NamedTuple):
    """One value the schema changed: its key, the type it took, and the text the model wrote."""

    key: str
    kind: str
    written: str


def typed_by_schema(arguments: dict[str, Any], schema: dict[str, Any]) -> tuple[dict[str, Any], list[Coercion]]:
    """`arguments` with each text value the schema types otherwise read as that type, and the
    changes made (see the module's docstring)."""
    typed: dict[str, Any] = {}
    changes: list[Coercion] = []
    for key, value in arguments.items():
        spec = schema.get(key)
        kind = spec.get("type") if isinstance(spec, dict) else None
        kinds = [k for k in (kind if isinstance(kind, list) else [kind]) if isinstance(k, str)]
        if isinstance(value, str) and kinds and "string" not in kinds:
            for candidate in kinds:
                read = _read_as(value.strip(), candidate)
                if read is not _NO_VALUE:
                    changes.append(Coercion(key, candidate, value))
                    value = read
                    break
        typed[key] = value
    return typed, changes


def type_by_schema(arguments: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """`arguments` typed by `schema`'s properties (`typed_by_schema`, the changes left out)."""
    return typed_by_schema(arguments, schema)[0]


def typed_text_values(
    name: str, arguments: dict[str, Any], catalogue: Catalogue
) -> tuple[dict[str, Any], list[Coercion]]:
    """Text values of a call of `name` (each as written) typed by the tool's schema when the
    catalogue knows it; kept as written when it does not."""
    spec = catalogue.get(name)
    if spec is None or not spec.properties:
        return arguments, []
    return typed_by_schema(arguments, spec.properties)


def coercions_note(changes: list[Coercion]) -> str:
    """What the schema changed, for a finding's message ("" when nothing)."""
    if not changes:
        return ""
    listed = ", ".join(f"{change.key} {json.dumps(change.written)[:40]} as {change.kind}" for change in changes)
    return f"Typed by the tool's schema: {listed}."


def _read_as(text: str, kind: str) -> Any:
    """The value `text` reads as when of JSON type `kind`, or `_NO_VALUE`."""
    if kind == "integer":
        return int(text) if _INTEGER.fullmatch(text) else _NO_VALUE
    if kind == "number":
        if _INTEGER.fullmatch(text):
            return int(text)
        return float(text) if _NUMBER.fullmatch(text) else _NO_VALUE
    if kind in _WORDS:
        return _WORDS[kind].get(text.lower(), _NO_VALUE)
    if kind in ("object", "array"):
        wanted = dict if kind == "object" else list
        value = _structured(text)
        return value if isinstance(value, wanted) else _NO_VALUE
    return _NO_VALUE


def _structured(text: str) -> Any:
    """The JSON value `text` holds, else the Python literal it writes (with JSON's words), else `_NO_VALUE`."""
    if not text.startswith(("{", "[", "(")):
        return _NO_VALUE
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        pass
    try:
        return argument_value(ast.parse(text, mode="eval").body)[0]
    except (NotJson, ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
        return _NO_VALUE
