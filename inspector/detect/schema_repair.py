"""Lossless repair of values against a `jsonschema` validator, one error at a time.

A type error is repaired by a lossless conversion (`schema_values.convert`) to one of the allowed
types; an enum or const error by the one allowed value that matches ignoring case and punctuation;
an anyOf/oneOf error (no form fits) by repairing the value into each form in turn. Where the value
can be repaired into more than one form with different results (`"5"` for `integer or boolean`
is not ambiguous, `5` for `string or array` is: `"5"` or `[5]`), nothing is guessed and the error
stays. A converted value must also satisfy the rest of its schema (repaired the same way inside).
"""

from __future__ import annotations

import copy
from typing import Any

from inspector.detect.schema_kinds import INVALID_ARGUMENT, WRONG_TYPE, kind_of
from inspector.detect.schema_validation import SchemaError, Validator
from inspector.detect.schema_values import canonical, convert, normalise_enum, show_path, show_value

Change = tuple[str, str]  # (finding kind, what changed)
JsonPath = tuple[str | int, ...]  # where a value is: keys and indexes from the top
MAX_STEPS = 20
MAX_DEPTH = 6


def repair_steps(validator: Validator, value: Any, base: JsonPath = (), depth: int = 0) -> tuple[Any, list[Change]]:
    """`value` (copied) with each error that has a lossless repair repaired, and the changes made,
    naming places from `base`. The result may still be invalid: the caller checks."""
    work = copy.deepcopy(value)
    changes: list[Change] = []
    for _ in range(MAX_STEPS):
        step = next(filter(None, (_step(validator, error, base, depth) for error in validator.iter_errors(work))), None)
        if step is None:
            break
        path, new, made = step
        work = _set_at(work, path, new)
        changes.extend(made)
    return work, changes


def repaired_into(
    validator: Validator, schema: Any, value: Any, base: JsonPath, depth: int
) -> tuple[Any, list[Change]] | None:
    """`value` repaired until it is valid against `schema` (a part of the validator's schema), with
    the changes made, or None when no lossless repair gets there."""
    if depth > MAX_DEPTH or not isinstance(schema, (dict, bool)):
        return None
    try:
        part = validator.evolve(schema=schema)
        if part.is_valid(value):
            return value, []
        new, changes = repair_steps(part, value, base, depth + 1)
        return (new, changes) if part.is_valid(new) else None
    except Exception:  # a reference that does not resolve, or a schema jsonschema cannot use: no repair
        return None


def fits(validator: Validator, schema: Any, value: Any) -> bool:
    """Whether `value` is valid against `schema`, a part of the validator's schema (its references
    resolve from the whole); False when that cannot be told."""
    try:
        return validator.evolve(schema=schema).is_valid(value)
    except Exception:  # a reference that does not resolve, or a schema jsonschema cannot use
        return False


def _step(
    validator: Validator, error: SchemaError, base: JsonPath, depth: int
) -> tuple[list[str | int], Any, list[Change]] | None:
    """The repair of one error: where, the new value and the changes; None when there is none or
    when more than one differing repair fits."""
    path, value = list(error.absolute_path), error.instance
    here = (*base, *path)
    if error.validator == "type":
        wanted = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
        options: list[tuple[Any, list[Change]]] = []
        for kind in wanted:
            converted = convert(value, kind) if isinstance(kind, str) else None
            if converted is None:
                continue
            done = repaired_into(validator, error.schema, converted[0], here, depth)
            if done:
                options.append((done[0], [_change(WRONG_TYPE, here, value, converted[0]), *done[1]]))
    elif error.validator in ("enum", "const") and isinstance(value, str):
        allowed = error.validator_value if error.validator == "enum" else [error.validator_value]
        new = normalise_enum(value, allowed if isinstance(allowed, list) else [])
        options = [] if new is None else [(new, [_change(INVALID_ARGUMENT, here, value, new)])]
    elif error.validator in ("anyOf", "oneOf") and error.context and isinstance(error.validator_value, list):
        kind = kind_of(error)
        options = []
        for branch in error.validator_value:
            done = repaired_into(validator, branch, value, here, depth)
            if done and done[1] and fits(validator, error.schema, done[0]):
                options.append((done[0], [(kind, text) for _, text in done[1]]))
    else:
        return None
    distinct = {canonical(new): (new, made) for new, made in options}
    if len(distinct) != 1:
        return None
    ((new, made),) = distinct.values()
    return path, new, made


def _change(kind: str, where: JsonPath, old: Any, new: Any) -> Change:
    return kind, f"{show_path(where)}: {show_value(old)} -> {show_value(new)}"


def _set_at(obj: Any, path: list[str | int], value: Any) -> Any:
    if not path:
        return value
    obj[path[0]] = _set_at(obj[path[0]], path[1:], value)
    return obj
