"""A repaired turn's calls in the shape a person reads them: each call a fix recovers from text or
corrects (new arguments, a new name) with the arguments it added, changed or removed
(`arguments_diff`), and the turn's own calls as recorded, with the spans of their stored arguments
a fix removes or replaces (`word_diff`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from inspector.model import ToolCall, Turn
from inspector.support.lenient_json import parse_object_at
from inspector.view.arguments_diff import ArgumentsDiff, diff_arguments
from inspector.view.word_diff import diff_text

RECOVERED_CALL = "recovered"
CORRECTED_CALL = "corrected"


@dataclass(frozen=True)
class CallPreview:
    """A call after the fix: `origin` is "recovered" (a new call, never executed) or "corrected"
    (the turn's own call with new arguments or a new name); `diff`, its arguments against the
    recorded ones (every argument of a recovered call is added); `renamed_from` is the old name
    of a renamed call."""

    name: str
    arguments: dict[str, Any] | None
    origin: str
    diff: ArgumentsDiff = ArgumentsDiff()
    renamed_from: str | None = None

    @property
    def changed(self) -> frozenset[str]:
        """The top-level arguments the fix added, changed (or changed inside) or removed."""
        diff = self.diff
        return frozenset(str(path[0]) for path in diff.added | diff.changed | diff.removed)


@dataclass(frozen=True)
class RecordedCall:
    """One of the turn's own calls as recorded, `call`, with the arguments a fix gives it
    (`replaced_by`; None when it keeps them) and whether the fix renames it."""

    call: ToolCall
    replaced_by: Any = None
    renamed: bool = False

    @property
    def name(self) -> str:
        """The call's name as recorded."""
        return self.call.name

    @property
    def arguments(self) -> str:
        """The call's arguments exactly as stored, as text."""
        return stored_text(self.call)

    @cached_property
    def faults(self) -> tuple[tuple[int, int, str], ...]:
        """The (start, end, kind) spans of `arguments` that the new arguments remove or replace
        (white space aside): an extra `}`, a quote of the wrong kind, an argument dropped. Found
        when first asked for: a diff of hostile-sized arguments costs a tenth of a second."""
        new = self.replaced_by
        if new is None or new == self.call.arguments:
            return ()
        text = self.arguments
        wanted = json.dumps(new, ensure_ascii="\\u" in text)
        return tuple(
            (start, end, kind) for start, end, kind in diff_text(text, wanted).before_spans() if text[start:end].strip()
        )


def recovered_calls(calls: tuple[ToolCall, ...]) -> tuple[CallPreview, ...]:
    """The previews of calls a fix recovers from text: every argument is new."""
    return tuple(CallPreview(c.name, c.arguments, RECOVERED_CALL, diff_arguments(None, c.arguments)) for c in calls)


def corrected_calls(turn: Turn, arguments: dict[int, Any], names: dict[int, str]) -> tuple[CallPreview, ...]:
    """The turn's own calls given new `arguments` or new `names` (by call index), in call order,
    each against its arguments as recorded."""
    previews = []
    for index in sorted(set(arguments) | set(names)):
        if not 0 <= index < len(turn.tool_calls):
            continue
        call = turn.tool_calls[index]
        new, name = arguments.get(index, call.arguments), names.get(index, call.name)
        previews.append(
            CallPreview(
                name,
                new,
                CORRECTED_CALL,
                diff_arguments(recorded_arguments(call), new),
                call.name if name != call.name else None,
            )
        )
    return tuple(previews)


def recorded_calls(
    turn: Turn, arguments: dict[int, Any] | None = None, names: dict[int, str] | None = None
) -> tuple[RecordedCall, ...]:
    """The turn's own calls as recorded, each with the new `arguments` (by call index: what a fix
    leaves them as) and whether `names` renames it."""
    arguments, names = arguments or {}, names or {}
    return tuple(
        RecordedCall(call, arguments.get(index), names.get(index, call.name) != call.name)
        for index, call in enumerate(turn.tool_calls)
    )


def stored_text(call: ToolCall) -> str:
    """A call's arguments exactly as the session stores them: its string, or its object as JSON."""
    raw = call.arguments_raw
    return raw if isinstance(raw, str) else json.dumps(raw, ensure_ascii=False)


def recorded_arguments(call: ToolCall) -> dict[str, Any] | None:
    """The arguments a call was recorded with, as an object: its parsed arguments, else the object
    its stored string starts with (read leniently: a `}` too many or JS-style quotes are not a
    change of argument), else None."""
    if isinstance(call.arguments, dict):
        return call.arguments
    if isinstance(call.arguments_raw, str):
        parsed = parse_object_at(call.arguments_raw.strip())
        return parsed.value if parsed is not None else None
    return None
