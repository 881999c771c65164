"""One tool's parameter schema as a checker: a quick test that passes most valid calls without
`jsonschema`, the `jsonschema` validator (built, and imported, only when a call fails the quick
test), the problems of a call's arguments, and their one lossless repair."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from inspector.detect.schema_kinds import UNKNOWN_PARAMETER, Problem, problem_of
from inspector.detect.schema_repair import Change, fits, repair_steps
from inspector.detect.schema_validation import SchemaError, Validator
from inspector.detect.schema_values import JSON_TYPES
from inspector.model import ToolSpec

WRAPPERS = ("arguments", "input", "parameters", "params")
_SIMPLE_TOP = {"type", "properties", "required", "additionalProperties", "description", "title", "$schema"}
_SIMPLE_PROP = {"type", "description", "title", "enum", "default", "examples"}
# The checkers built lately, by the id of their spec (the entry keeps the spec, so that id is not
# reused while the entry lives); emptied when it reaches this many.
_RECENT_AT_MOST = 64
_recent: dict[int, tuple[ToolSpec, ToolSchema]] = {}


def tool_schema(spec: ToolSpec) -> ToolSchema:
    """The checker of `spec`, shared by every session holding that same spec object: a file of
    many small sessions (ShareGPT, fine-tuning JSON Lines) repeats one tool list on each line, and
    its reader hands each session the spec it read first, so the checker (and its `jsonschema`
    validator, when a call needs one) is built once, not once a session. A checker depends only on
    the spec's name and parameters, which no one changes."""
    entry = _recent.get(id(spec))
    if entry is None:
        if len(_recent) >= _RECENT_AT_MOST:
            _recent.clear()  # (one call, safe should two threads scan at once)
        entry = _recent[id(spec)] = spec, ToolSchema(spec)
    return entry[1]


class ToolSchema:
    """One tool's validator, with a quick check for simple schemas."""

    def __init__(self, spec: ToolSpec) -> None:
        schema = self.schema = spec.parameters
        self.name, self.props, self.required = spec.name, spec.properties, spec.required
        extra = schema.get("additionalProperties")
        # a definition without parameters (Gemini's bare `{"name": ...}`) says nothing about them
        self.open = (
            bool(schema.get("patternProperties"))
            or extra is True
            or isinstance(extra, dict)
            or (not self.props and extra is not False)
        )
        self.quick = _quick_plan(schema) if set(schema) <= _SIMPLE_TOP and not isinstance(extra, dict) else None

    @cached_property
    def validator(self) -> Validator | None:
        """The `jsonschema` validator (of the draft the schema declares, else 2020-12), or None when
        the schema itself is invalid. Built, and `jsonschema` imported, only when first needed."""
        from jsonschema.exceptions import SchemaError
        from jsonschema.validators import Draft202012Validator, validator_for

        cls = validator_for(self.schema, default=Draft202012Validator)
        try:
            cls.check_schema(self.schema)
        except SchemaError:
            return None
        built: Validator = cls(self.schema)
        return built

    def valid(self, args: dict[str, Any]) -> bool:
        """Whether `args` validate and name only known parameters."""
        plan = self.quick
        if plan is not None:
            for key, value in args.items():
                rule = plan.get(key)
                if rule is None or (rule[0] is not None and not JSON_TYPES[rule[0]](value)):
                    break
                if rule[1] is not None and not (isinstance(value, str) and value in rule[1]):
                    break
            else:
                if self.required <= args.keys():
                    return True
        if self.validator is None:
            return True  # an invalid schema checks nothing
        if not (self.open or all(key in self.props for key in args)):
            return False
        errors = self._errors(args)
        return errors is None or not errors  # a reference that does not resolve checks nothing

    def problems(self, args: dict[str, Any]) -> list[Problem]:
        """Every problem in `args`, classified."""
        found = (
            []
            if self.open
            else [
                Problem(
                    UNKNOWN_PARAMETER,
                    f"{key!r} is not a parameter of {self.name} (it has: {', '.join(self.props) or 'none'})",
                )
                for key in args
                if key not in self.props
            ]
        )
        found.extend(filter(None, map(problem_of, self._errors(args) or ())))
        return found

    def _errors(self, args: dict[str, Any]) -> list[SchemaError] | None:
        """Every `jsonschema` error of `args`, or None when the schema checks nothing: it is
        invalid, or refers to a part that does not exist (found only when a value reaches that
        reference)."""
        from referencing.exceptions import Unresolvable

        if self.validator is None:
            return None
        try:
            return list(self.validator.iter_errors(args))
        except Unresolvable:
            return None

    def repair(self, args: dict[str, Any]) -> tuple[dict[str, Any] | None, list[Change]]:
        """The repaired arguments (None when no lossless repair validates) and the changes made."""
        validator = self.validator
        if validator is None:  # an invalid schema checks nothing: every call is valid
            return None, []
        if len(args) == 1:
            ((key, inner),) = args.items()
            if key in WRAPPERS and key not in self.props and isinstance(inner, dict) and self.valid(inner):
                return inner, [(UNKNOWN_PARAMETER, f"unwrap the {key!r} wrapper")]
        work = args
        changes: list[Change] = []
        missing = [name for name in self.required if name not in work]
        unknown = [] if self.open else [key for key in work if key not in self.props]
        if len(missing) == 1 and unknown:
            fitting = [key for key in unknown if fits(validator, self.props.get(missing[0], {}), work[key])]
            if len(fitting) == 1:
                work = {(missing[0] if key == fitting[0] else key): value for key, value in work.items()}
                changes.append((UNKNOWN_PARAMETER, f"rename {fitting[0]!r} to {missing[0]!r}"))
        from referencing.exceptions import Unresolvable

        try:
            work, converted = repair_steps(validator, work)
        except Unresolvable:
            return None, []
        changes.extend(converted)
        return (work, changes) if changes and self.valid(work) else (None, [])


def _quick_plan(schema: dict[str, Any]) -> dict[str, tuple[str | None, frozenset[str] | None]] | None:
    """Per parameter, its one type and its string enum, when every parameter's schema is that
    simple; else None (the call goes to `jsonschema`)."""
    plan: dict[str, tuple[str | None, frozenset[str] | None]] = {}
    properties = schema.get("properties") or {}
    if not isinstance(properties, dict):  # an invalid schema, which `jsonschema` refuses: it checks nothing
        return None
    for name, prop in properties.items():
        if not isinstance(prop, dict) or not set(prop) <= _SIMPLE_PROP:
            return None
        kind, enum = prop.get("type"), prop.get("enum")
        if (kind is not None and not (isinstance(kind, str) and kind in JSON_TYPES)) or (
            enum is not None and not (isinstance(enum, list) and all(isinstance(e, str) for e in enum))
        ):
            return None
        plan[name] = (kind, frozenset(enum) if enum is not None else None)
    return plan
