"""Recovered arguments typed by the tool's schema, and only by it.

A value is changed only when the tool's schema gives its parameter a type the value is not, and
the text reads as that type: `"3"` for an integer is 3, `"true"` for a boolean is True, `"null"`
for null is None, and for an object or an array, JSON or a Python literal (`{'category': 'books'}`,
read with `ast`, never run). The values inside an object or an array are typed the same way by the
schema's `properties` and `items` (`{"filters": {"max_price": "20"}}` with a number `max_price` is
20), each change named by its path (`filters.max_price`, `ids[0]`). Text that reads as none of the parameter's types stays as written, and
so does every value of a tool the catalogue does not know, or of a parameter its schema does not
type: the repair never guesses a type the model did not write. Each change is recorded (`Coercion`),
for the finding to say what the repair changed.
"""

from __future__ import annotations

import ast
import json
from typing import Any, NamedTuple

from inspector.catalogue import Catalogue
from inspector.detect.markup.literals import NotJson, argument_value
from inspector.support.lazy_pattern import lazy_pattern

_INTEGER = lazy_pattern(r"-?\d+")
_NUMBER = lazy_pattern(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_WORDS: dict[str, dict[str, Any]] = {"boolean": {"true": True, "false": False}, "null": {"null": None, "none": None}}
_NO_VALUE = object()  # what a text that does not read as a type gives
_MAX_DEPTH = 32  # objects and arrays typed inside one another at most (a bound against hostile schemas)


class Coercion(NamedTuple):
    """One value the schema changed: its key, the type it took, and the text the model wrote."""

    key: str
    kind: str
    written: str


def typed_by_schema(arguments: dict[str, Any], schema: dict[str, Any]) -> tuple[dict[str, Any], list[Coercion]]:
    """`arguments` with each text value the schema types otherwise read as that type, inside
    objects and arrays too, and the changes made (see the module's docstring)."""
    changes: list[Coercion] = []
    return _typed_object(arguments, schema, "", changes, 0), changes


def _typed_object(
    values: dict[str, Any], properties: dict[str, Any], path: str, changes: list[Coercion], depth: int
) -> dict[str, Any]:
    """An object's values typed by the schemas `properties` gives its keys."""
    return {key: _typed_value(value, properties.get(key), path + key, changes, depth) for key, value in values.items()}


def _typed_value(value: Any, spec: Any, path: str, changes: list[Coercion], depth: int) -> Any:
    """A value typed by its schema `spec`: text read as the type it gives, then the values of an
    object by its `properties` and the items of an array by its `items`, `_MAX_DEPTH` levels down
    at most."""
    if not isinstance(spec, dict):
        return value
    kind = spec.get("type")
    if kind == "string" and isinstance(value, str):  # (most values: nothing to type, nothing inside)
        return value
    kinds = [k for k in (kind if isinstance(kind, list) else [kind]) if isinstance(k, str)]
    if isinstance(value, str) and kinds and "string" not in kinds:
        for candidate in kinds:
            read = _read_as(value.strip(), candidate)
            if read is not _NO_VALUE:
                changes.append(Coercion(path, candidate, value))
                value = read
                break
    if depth == _MAX_DEPTH:
        return value
    if isinstance(value, dict) and isinstance(spec.get("properties"), dict):
        return _typed_object(value, spec["properties"], path + ".", changes, depth + 1)
    if isinstance(value, list) and isinstance(spec.get("items"), dict):
        items = spec["items"]
        return [_typed_value(item, items, f"{path}[{index}]", changes, depth + 1) for index, item in enumerate(value)]
    return value


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
