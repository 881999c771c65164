"""Checking calls against their tools' JSON schemas (seed 003), shared by the four schema detectors.

Each call of a tool with a real schema (not one only observed in calls) is validated with
`jsonschema`; validators are built once per tool, and a quick check of the keys, required keys,
simple types and enums passes most calls without calling `jsonschema` at all. Errors are sorted
into `unknown-tool`, `invalid-argument`, `unknown-parameter` and `wrong-type`, and one repair is
tried per call: unwrap a wrapper, rename an unknown parameter to the one missing required one,
convert types losslessly, normalise enum values. A repair counts only if the result validates.
"""

from __future__ import annotations

import copy
import difflib
import json
import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Iterable, Iterator

from inspector.catalogue import OBSERVED, Catalogue
from inspector.model import Finding, Fix, ToolCall, ToolSpec, Turn
from inspector.safe_text import preview

UNKNOWN_TOOL, INVALID_ARGUMENT = "unknown-tool", "invalid-argument"
UNKNOWN_PARAMETER, WRONG_TYPE = "unknown-parameter", "wrong-type"
WRAPPERS = ("arguments", "input", "parameters", "params")
_SIMPLE_TOP = {"type", "properties", "required", "additionalProperties", "description", "title", "$schema"}
_SIMPLE_PROP = {"type", "description", "title", "enum", "default", "examples"}
_TYPES = {"string": lambda v: isinstance(v, str), "boolean": lambda v: isinstance(v, bool),
          "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
          "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
          "array": lambda v: isinstance(v, list), "object": lambda v: isinstance(v, dict), "null": lambda v: v is None}
_INTEGER = re.compile(r"-?(?:0|[1-9]\d*)")
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a call: its kind and what is wrong, in words."""

    kind: str
    text: str


@dataclass(frozen=True)
class CallCheck:
    """A call with problems: where it is, what is wrong, and the repaired arguments (None when no
    repair validates) with the changes made, by kind."""

    turn: Turn
    index: int
    call: ToolCall
    problems: tuple[Problem, ...]
    repaired: dict[str, Any] | None = None
    changes: tuple[tuple[str, str], ...] = ()


class ToolSchema:
    """One tool's validator, with a quick check for simple schemas."""

    def __init__(self, spec: ToolSpec) -> None:
        schema = self.schema = spec.parameters
        self.name, self.props, self.required = spec.name, spec.properties, spec.required
        extra = schema.get("additionalProperties")
        # a definition without parameters (Gemini's bare `{"name": ...}`) says nothing about them
        self.open = bool(schema.get("patternProperties")) or extra is True or isinstance(extra, dict) or (
            not self.props and extra is not False)
        self.quick = _quick_plan(schema) if set(schema) <= _SIMPLE_TOP and not isinstance(extra, dict) else None

    @cached_property
    def validator(self):
        """The `jsonschema` validator (of the draft the schema declares, else 2020-12), or None when
        the schema itself is invalid. Built, and `jsonschema` imported, only when first needed."""
        from jsonschema.exceptions import SchemaError
        from jsonschema.validators import Draft202012Validator, validator_for

        cls = validator_for(self.schema, default=Draft202012Validator)
        try:
            cls.check_schema(self.schema)
        except SchemaError:
            return None
        return cls(self.schema)

    def valid(self, args: dict[str, Any]) -> bool:
        """Whether `args` validate and name only known parameters."""
        plan = self.quick
        if plan is not None:
            for key, value in args.items():
                rule = plan.get(key)
                if rule is None or (rule[0] is not None and not _TYPES[rule[0]](value)):
                    break
                if rule[1] is not None and not (isinstance(value, str) and value in rule[1]):
                    break
            else:
                if self.required <= args.keys():
                    return True
        if self.validator is None:
            return True  # an invalid schema checks nothing
        return (self.open or all(key in self.props for key in args)) and self.validator.is_valid(args)

    def problems(self, args: dict[str, Any]) -> list[Problem]:
        """Every problem in `args`, classified."""
        found = [] if self.open else [
            Problem(UNKNOWN_PARAMETER, f"{key!r} is not a parameter of {self.name} (it has: {', '.join(self.props) or 'none'})")
            for key in args if key not in self.props]
        for error in self.validator.iter_errors(args):
            if error.validator == "additionalProperties" and not error.absolute_path:
                continue
            where = _path(error.absolute_path)
            if error.validator == "type":
                found.append(Problem(WRONG_TYPE, f"{where} is {_preview(error.instance)}, expected {_types(error.validator_value)}"))
            elif error.validator == "required":
                found.append(Problem(INVALID_ARGUMENT, f"required parameter {error.message.split(' is ')[0]} is missing"
                                     + (f" in {where}" if error.absolute_path else "")))
            elif error.validator == "enum":
                allowed = ", ".join(map(_preview, error.validator_value))
                found.append(Problem(INVALID_ARGUMENT, f"{where} is {_preview(error.instance)}, not one of {allowed}"))
            else:
                found.append(Problem(INVALID_ARGUMENT, f"{where}: {error.message[:160]}"))
        return found

    def repair(self, args: dict[str, Any]) -> tuple[dict[str, Any] | None, list[tuple[str, str]]]:
        """The repaired arguments (None when no lossless repair validates) and the changes made."""
        if len(args) == 1:
            (key, inner), = args.items()
            if key in WRAPPERS and key not in self.props and isinstance(inner, dict) and self.valid(inner):
                return inner, [(UNKNOWN_PARAMETER, f"unwrapped the {key!r} wrapper")]
        work, changes = copy.deepcopy(args), []
        missing = [name for name in self.required if name not in work]
        unknown = [] if self.open else [key for key in work if key not in self.props]
        if len(missing) == 1 and unknown:
            fits = [key for key in unknown if self._fits(missing[0], work[key])]
            if len(fits) == 1:
                work = {(missing[0] if key == fits[0] else key): value for key, value in work.items()}
                changes.append((UNKNOWN_PARAMETER, f"renamed {fits[0]!r} to {missing[0]!r}"))
        for _ in range(20):
            step = next(filter(None, (_fix_error(e) for e in self.validator.iter_errors(work))), None)
            if step is None:
                break
            path, value, change = step
            work = _set_at(work, path, value)
            changes.append(change)
        return (work, changes) if changes and self.valid(work) else (None, [])

    def _fits(self, name: str, value: Any) -> bool:
        try:
            return self.validator.evolve(schema=self.props.get(name, {})).is_valid(value)
        except Exception:  # a $ref that only resolves from the root: no rename
            return False


def _quick_plan(schema: dict[str, Any]) -> dict[str, tuple[str | None, frozenset | None]] | None:
    plan = {}
    for name, prop in (schema.get("properties") or {}).items():
        if not isinstance(prop, dict) or not set(prop) <= _SIMPLE_PROP:
            return None
        kind, enum = prop.get("type"), prop.get("enum")
        if (kind is not None and kind not in _TYPES) or (enum is not None and not all(isinstance(e, str) for e in enum)):
            return None
        plan[name] = (kind, frozenset(enum) if enum is not None else None)
    return plan


def _fix_error(error) -> tuple[list, Any, tuple[str, str]] | None:
    path, value, where = list(error.absolute_path), error.instance, _path(error.absolute_path)
    if error.validator == "type":
        wanted = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
        for kind in wanted:
            new = convert(value, kind)
            if new is not None:
                return path, new[0], (WRONG_TYPE, f"{where}: {_preview(value)} -> {_preview(new[0])}")
    elif error.validator in ("enum", "const") and isinstance(value, str):
        allowed = error.validator_value if error.validator == "enum" else [error.validator_value]
        new = normalise_enum(value, allowed)
        if new is not None:
            return path, new, (INVALID_ARGUMENT, f"{where}: {_preview(value)} -> {_preview(new)}")
    return None


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
            except (json.JSONDecodeError, RecursionError):
                loaded = None
            if _TYPES[kind](loaded):
                return (loaded,)
    if kind == "string" and _TYPES["number"](value):
        return (json.dumps(value),)
    if kind == "array" and not isinstance(value, list):
        return ([value],)
    return None


def normalise_enum(value: str, allowed: Iterable[Any]) -> str | None:
    """The one allowed value equal to `value` ignoring case, punctuation and space, or None."""
    def squash(text: str) -> str:
        return re.sub(r"[\W_]+", "", text).casefold()
    matches = {a for a in allowed if isinstance(a, str) and (a.casefold() == value.casefold() or squash(a) == squash(value))}
    return matches.pop() if len(matches) == 1 and value not in matches else None


def _set_at(obj: Any, path: list, value: Any) -> Any:
    if not path:
        return value
    obj[path[0]] = _set_at(obj[path[0]], path[1:], value)
    return obj


def _path(path) -> str:
    parts = list(path)
    return (repr(parts[0]) + "".join(f"[{p!r}]" for p in parts[1:])) if parts else "the arguments"


def _types(value: Any) -> str:
    return " or ".join(value) if isinstance(value, list) else str(value)


def _preview(value: Any) -> str:
    """A value as a JSON literal ("Metric", 42, [1, 2]), cut to 40 characters."""
    return preview(json.dumps(value, ensure_ascii=False), 41)


class SchemaChecker:
    """The schema checks of one session's catalogue: validators built once per tool."""

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        self.defined = [spec for spec in catalogue if spec.source != OBSERVED]
        self._tools: dict[str, ToolSchema | None] = {}

    def tool(self, name: str) -> ToolSchema | None:
        """The validator of tool `name`, or None when it has no real (or no valid) schema."""
        if name not in self._tools:
            spec = self.catalogue.get(name)
            self._tools[name] = ToolSchema(spec) if spec is not None and spec.source != OBSERVED else None
        return self._tools[name]

    def closest(self, name: str, args: dict[str, Any] | None, limit: int = 3) -> list[tuple[float, str]]:
        """The defined tools most like a call of `name` with `args`: by name similarity, by the
        share of the arguments that are its parameters, and whether the arguments validate."""
        scored = []
        for spec in self.defined:
            score = difflib.SequenceMatcher(None, name.lower(), spec.name.lower()).ratio()
            if args:
                score += sum(key in spec.properties for key in args) / len(args)
                tool = self.tool(spec.name)
                score += 0.5 if tool is not None and tool.valid(args) else 0.0
            scored.append((round(score, 2), spec.name))
        return sorted(scored, key=lambda pair: (-pair[0], pair[1]))[:limit]

    def _unknown(self, call: ToolCall) -> str:
        closest = ", ".join(f"{name} (score {score})" for score, name in self.closest(call.name, call.arguments))
        return f"{call.name!r} is not a defined tool; the closest defined tools are {closest}"

    def check(self, turn: Turn, index: int, call: ToolCall) -> CallCheck | None:
        """The problems of one call with parsed arguments, or None when it is fine."""
        tool = self.tool(call.name)
        if tool is None:
            if self.defined and (self.catalogue.get(call.name) is None or self.catalogue.get(call.name).source == OBSERVED):
                return CallCheck(turn, index, call, (Problem(UNKNOWN_TOOL, self._unknown(call)),))
            return None
        if tool.valid(call.arguments):
            return None
        repaired, changes = tool.repair(call.arguments)
        return CallCheck(turn, index, call, tuple(tool.problems(call.arguments)), repaired, tuple(changes))


def checker(context) -> SchemaChecker:
    """The session's checker, built once per scan and kept on the context."""
    return context.memo("schema-checker", lambda: SchemaChecker(context.catalogue))


def structured_checks(context) -> list[CallCheck]:
    """The checks of every structured call with parsed arguments that has a problem (computed once)."""
    def compute() -> list[CallCheck]:
        check = checker(context).check
        return [result for turn in context.turns_with_calls
                for index, call in enumerate(turn.tool_calls) if call.arguments is not None
                for result in (check(turn, index, call),) if result is not None]

    return context.memo("schema-checks", compute)


def finding(check: CallCheck, kind: str, severity: str, recovered: bool = False) -> Finding | None:
    """The finding of `kind` for a checked call, with the repair as its fix (none for recovered
    calls: the person corrects those in the review), or None when the call has no such problem."""
    mine = [p.text for p in check.problems if p.kind == kind]
    if not mine:
        return None
    call, turn = check.call, check.turn
    label = f"Recovered call {call.name}" if recovered else (
        f"The {call.name} call" + (f" (call {check.index + 1} of the turn)" if len(turn.tool_calls) > 1 else ""))
    message = f"{label} has {kind}: {'; '.join(mine)}."
    payload = {"problems": mine, "changes": [text for _, text in check.changes]}
    own = [text for k, text in check.changes if k == kind]
    other = [f"{text} ({k})" for k, text in check.changes if k != kind]
    if kind == UNKNOWN_TOOL:
        return Finding(turn.position, turn.id, turn.role, kind, severity,
                       message + " No automatic fix: rename the call by hand in the review.",
                       tool=call.name, arguments=call.arguments, payload=payload)
    if check.repaired is None:
        return Finding(turn.position, turn.id, turn.role, kind, severity,
                       message + " No automatic fix: no lossless repair makes the arguments valid.",
                       tool=call.name, arguments=call.arguments, payload=payload)
    changes = "; ".join(own + other)
    if recovered:
        return Finding(turn.position, turn.id, turn.role, kind, severity,
                       message + f" Correct it by hand in the review; it would validate with: {changes}.",
                       tool=call.name, arguments=call.arguments, payload=payload)
    message += f" Fix: {'; '.join(own) or 'see the other findings of this call'}"
    message += (f" (applied together with: {'; '.join(other)})" if other else "") + "; the result validates."
    fix = Fix(replace_arguments=((check.index, check.repaired),), summary=f"replace the {call.name} call's arguments: {changes}")
    return Finding(turn.position, turn.id, turn.role, kind, severity, message, tool=call.name,
                   arguments=check.repaired, payload=payload, fix=fix)


def recovered_findings(context, findings: list[Finding], severities: dict[str, str]) -> Iterator[Finding]:
    """Schema findings for the calls that other findings' fixes recover from text."""
    check = checker(context).check
    for found in list(findings):
        turn = context.session.turn_at(found.turn) if found.fix is not None and found.fix.add_calls else None
        if turn is None:
            continue
        for call in found.fix.add_calls:
            result = check(turn, 0, call) if call.arguments is not None else None
            for kind, severity in (severities.items() if result is not None else ()):
                extra = finding(result, kind, severity, recovered=True)
                if extra is not None:
                    yield extra


def findings_of_kind(context, kind: str, severity: str) -> Iterator[Finding]:
    """The findings of one schema kind over every structured call with parsed arguments: what
    each of the four schema detectors reports."""
    for check in structured_checks(context):
        found = finding(check, kind, severity)
        if found is not None:
            yield found
