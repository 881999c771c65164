"""The four schema finding kinds, and each `jsonschema` error sorted into one of them and said in
words: which value, where, and what the schema wanted instead."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspector.detect.schema_validation import SchemaError
from inspector.detect.schema_values import JSON_TYPES, show_path, show_types, show_value

UNKNOWN_TOOL, INVALID_ARGUMENT = "unknown-tool", "invalid-argument"
UNKNOWN_PARAMETER, WRONG_TYPE = "unknown-parameter", "wrong-type"

_LIMITS: dict[str, str] = {
    "minimum": "is {value}, below the minimum {limit}",
    "maximum": "is {value}, above the maximum {limit}",
    "exclusiveMinimum": "is {value}, not above {limit}",
    "exclusiveMaximum": "is {value}, not below {limit}",
    "minLength": "is {value}, shorter than {limit} characters",
    "maxLength": "is {value}, longer than {limit} characters",
    "minItems": "has fewer than {limit} items",
    "maxItems": "has more than {limit} items",
    "pattern": "is {value}, which does not match the pattern {limit}",
    "const": "is {value}, not {limit}",
}


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a call: its kind and what is wrong, in words."""

    kind: str
    text: str


def kind_of(error: SchemaError) -> str:
    """The finding kind of a `jsonschema` error: a value of a type that no allowed form has is a
    wrong type (also inside anyOf/oneOf); anything else breaks the schema."""
    if error.validator == "type":
        return WRONG_TYPE
    if error.validator in ("anyOf", "oneOf") and error.context:
        allowed = branch_types(error.validator_value)
        if allowed is not None and not any(JSON_TYPES[t](error.instance) for t in allowed if t in JSON_TYPES):
            return WRONG_TYPE
    return INVALID_ARGUMENT


def branch_types(branches: Any) -> list[str] | None:
    """The JSON types anyOf/oneOf branches allow, in order (nested anyOf/oneOf looked into), or None
    when some branch allows any (no `type`, `enum` or `const` of its own, or a `$ref`)."""
    types: list[str] = []
    for branch in branches if isinstance(branches, list) else ():
        if not isinstance(branch, dict) or "$ref" in branch:
            return None
        nested = branch.get("anyOf", branch.get("oneOf"))
        if "type" not in branch and isinstance(nested, list):
            found = branch_types(nested)
            if found is None:
                return None
        elif "type" in branch:
            found = branch["type"] if isinstance(branch["type"], list) else [branch["type"]]
        elif "enum" in branch or "const" in branch:
            values = branch["enum"] if "enum" in branch else [branch["const"]]
            found = [
                t
                for value in (values if isinstance(values, list) else ())
                for t in JSON_TYPES
                if JSON_TYPES[t](value) and t != "integer"
            ]
        else:
            return None
        types.extend(t for t in found if isinstance(t, str) and t not in types)
    return types


def problem_of(error: SchemaError) -> Problem | None:
    """The problem a `jsonschema` error of a call's arguments stands for; None for unknown names at
    the top (reported as unknown parameters instead)."""
    if error.validator == "additionalProperties" and not error.absolute_path:
        return None
    where, value = show_path(error.absolute_path), show_value(error.instance)
    kind = kind_of(error)
    if error.validator == "type":
        return Problem(kind, f"{where} is {value}, expected {show_types(error.validator_value)}")
    if error.validator == "required":
        missing = error.message.split(" is ")[0]
        return Problem(
            kind, f"required parameter {missing} is missing" + (f" in {where}" if error.absolute_path else "")
        )
    if error.validator == "enum":
        return Problem(kind, f"{where} is {value}, not one of {', '.join(map(show_value, error.validator_value))}")
    if error.validator in ("anyOf", "oneOf"):
        return Problem(kind, _alternatives(error, where, value))
    if error.validator in _LIMITS:
        limit = show_value(error.validator_value)
        return Problem(kind, f"{where} " + _LIMITS[error.validator].format(value=value, limit=limit))
    return Problem(kind, f"{where}: {error.message[:160]}")


def _alternatives(error: SchemaError, where: str, value: str) -> str:
    count = len(error.validator_value) if isinstance(error.validator_value, list) else 0
    if not error.context:
        return f"{where} is {value}, which fits more than one of the {count} allowed forms (oneOf wants exactly one)"
    if kind_of(error) == WRONG_TYPE:
        return f"{where} is {value}, expected {show_types(branch_types(error.validator_value))}"
    return f"{where} is {value}, which fits none of the {count} allowed forms ({error.validator})"
