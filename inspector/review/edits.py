"""A person's edit of a proposed fix: what the editor opens with, checking the arguments as they
are typed, and turning the edit back into a `Fix` that is applied like any other.

An edit is the turn's whole text after the fix plus the calls the fix recovers or corrects, and,
for a fix that masks a secret, the mask that replaces it (`[REDACTED:my-key]`: written in the
turn and everywhere the session's file holds the secret). It never loses the proposal: the review
keeps both, and the audit record says the fix was edited.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from inspector.model import Finding, Fix, ToolSpec, Turn
from inspector.support.lenient_json import loads_lenient


@dataclass(frozen=True)
class EditedCall:
    """One call as the person wants it: the tool's name and its arguments."""

    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class Edit:
    """The turn's whole text after the fix, the calls the fix recovers or corrects, in order, and
    the mask of the secret the fix masks (None for a fix that masks none)."""

    text: str
    calls: tuple[EditedCall, ...] = ()
    mask: str | None = None


@dataclass(frozen=True)
class ArgumentsCheck:
    """The editor's arguments text as parsed: the object (None when it cannot be used), one line
    saying why not, and remarks that do not block applying it."""

    arguments: dict[str, Any] | None
    error: str | None = None
    notes: tuple[str, ...] = ()


def proposal(finding: Finding, turn: Turn, fix: Fix | None = None) -> Edit:
    """What the editor opens with: the text and calls after `fix` (by default the finding's own
    fix); for a finding with no fix, the turn as it is and the call the finding is about."""
    fix = fix if fix is not None else finding.fix
    if fix is None:
        own = own_call_index(finding, turn)
        call = turn.tool_calls[own] if own is not None else None
        return Edit(turn.text, (_edited(call.name, call.arguments),) if call else ())
    text = fix.apply_to_text(turn.text)
    mask = fix.masks[0][1] if fix.masks else None
    if fix.add_calls:
        return Edit(text, tuple(_edited(call.name, call.arguments) for call in fix.add_calls), mask)
    arguments, names = dict(fix.replace_arguments), dict(fix.rename_calls)
    calls = turn.tool_calls
    return Edit(
        text,
        tuple(
            _edited(names.get(i, calls[i].name), arguments.get(i, calls[i].arguments))
            for i in _corrected_indexes(fix, turn)
        ),
        mask,
    )


def edited_fix(finding: Finding, turn: Turn, edit: Edit) -> Fix:
    """The fix that gives `edit`: recovered calls take the edited names and arguments, the turn's
    own calls are corrected in place, and the text replaces the turn's text when it differs from
    what the proposal leaves; a mask the person typed replaces the proposed one (the turn's text
    as proposed then shows it)."""
    fix = _with_mask(finding.fix or Fix(), edit.mask)
    proposed = finding.fix.apply_to_text(turn.text) if finding.fix is not None else turn.text
    text = None if edit.text in (proposed, fix.apply_to_text(turn.text)) else edit.text
    summary = "edited by hand" + (f" (proposed: {fix.summary})" if fix.summary else "")
    if fix.add_calls:
        calls = tuple(
            replace(call, name=e.name, arguments=e.arguments, arguments_raw=e.arguments)
            for call, e in zip(fix.add_calls, edit.calls)
        )
        return replace(fix, text=text, add_calls=calls, summary=summary)
    indexes = _corrected_indexes(fix, turn) if finding.fix is not None else _own_indexes(finding, turn)
    arguments = tuple((index, e.arguments) for index, e in zip(indexes, edit.calls))
    renames = tuple((index, e.name) for index, e in zip(indexes, edit.calls) if e.name != turn.tool_calls[index].name)
    return replace(fix, text=text, replace_arguments=arguments, rename_calls=renames, summary=summary)


def _with_mask(fix: Fix, mask: str | None) -> Fix:
    """The fix with `mask` in place of the mask of each secret it masks; as it was when `mask` is
    None, empty, or holds a secret it masks."""
    if mask is None or not mask.strip() or any(secret in mask for secret, _ in fix.masks):
        return fix
    return replace(fix, masks=tuple((secret, mask) for secret, _ in fix.masks))


def own_call_index(finding: Finding, turn: Turn) -> int | None:
    """The index of the turn's own call a finding is about: the call of the finding's tool with
    the finding's arguments, else the first call of that tool; None when there is none."""
    named = [i for i, call in enumerate(turn.tool_calls) if call.name == finding.tool]
    exact = [i for i in named if turn.tool_calls[i].arguments == finding.arguments]
    return next(iter(exact or named), None)


def _own_indexes(finding: Finding, turn: Turn) -> tuple[int, ...]:
    index = own_call_index(finding, turn)
    return () if index is None else (index,)


def _corrected_indexes(fix: Fix, turn: Turn) -> tuple[int, ...]:
    """The turn's own calls a fix corrects (new arguments or a new name), in call order."""
    touched = {i for i, _ in fix.replace_arguments} | {i for i, _ in fix.rename_calls}
    return tuple(i for i in sorted(touched) if 0 <= i < len(turn.tool_calls))


def _edited(name: str, arguments: dict[str, Any] | None) -> EditedCall:
    return EditedCall(name, dict(arguments) if isinstance(arguments, dict) else {})


def check_arguments(source: str, spec: ToolSpec | None) -> ArgumentsCheck:
    """Parse the editor's arguments text (JSON, or JS-style: unquoted keys, single quotes,
    trailing commas, comments) and validate it against the tool's schema when it is known."""
    if not source.strip():
        return ArgumentsCheck(None, "the arguments are empty: write an object, {} for none")
    notes: tuple[str, ...] = ()
    try:
        value = json.loads(source)
    except json.JSONDecodeError as error:
        lenient = loads_lenient(source)
        if lenient is None:
            return ArgumentsCheck(None, f"not JSON: {error.msg} (line {error.lineno}, column {error.colno})")
        value, repairs = lenient
        notes = (f"read as JS-style: {', '.join(repairs)}",) if repairs else ()
    if not isinstance(value, dict):
        return ArgumentsCheck(None, f"the arguments must be an object, not {_json_type(value)}", notes)
    problem = _schema_problem(value, spec)
    if problem is not None:
        return ArgumentsCheck(None, problem, notes)
    if spec is None:
        notes += ("no schema is known for this tool: only the JSON was checked",)
    return ArgumentsCheck(value, None, notes)


def _schema_problem(arguments: dict[str, Any], spec: ToolSpec | None) -> str | None:
    """One line naming the first way `arguments` breaks the tool's schema, or None."""
    if spec is None or not spec.parameters:
        return None
    from jsonschema import exceptions, validators  # imported on first use: scans never need it

    try:
        validator_class = validators.validator_for(spec.parameters)
        validator_class.check_schema(spec.parameters)
    except exceptions.SchemaError:
        return None  # a broken schema cannot judge anything; the JSON itself is fine
    errors = sorted(validator_class(spec.parameters).iter_errors(arguments), key=lambda e: list(e.path))
    if not errors:
        return None
    error = errors[0]
    where = "/".join(str(part) for part in error.path)
    return f"{spec.name}: {where + ': ' if where else ''}{error.message}"


def _json_type(value: Any) -> str:
    names = {list: "an array", str: "a string", bool: "a boolean", int: "a number", float: "a number"}
    return names.get(type(value), "null")
