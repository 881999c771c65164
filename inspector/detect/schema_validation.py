"""What the schema checks read of `jsonschema`'s validators and their errors, as protocols:
`jsonschema` ships no types, and these name the few members used."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Protocol


class SchemaError(Protocol):
    """One error a validator found (a `jsonschema.exceptions.ValidationError`)."""

    validator: str  # the schema keyword that failed: "type", "enum", "anyOf", ...
    validator_value: Any  # that keyword's value in the schema
    schema: Any  # the part of the schema holding the keyword
    instance: Any  # the value that failed
    absolute_path: Sequence[str | int]  # where the value is, from the top
    context: list[SchemaError]  # the errors of each anyOf/oneOf branch
    message: str


class Validator(Protocol):
    """A `jsonschema` validator of one schema."""

    def iter_errors(self, instance: Any) -> Iterator[SchemaError]:
        """Every error of `instance`."""
        ...

    def is_valid(self, instance: Any) -> bool:
        """Whether `instance` validates."""
        ...

    def evolve(self, *, schema: Any) -> Validator:
        """The same validator (its references resolving from the whole schema) for a part `schema`."""
        ...
