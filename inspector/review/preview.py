"""What one finding's fix changes in its turn, in the shape a reviewer reads: the original text
with the suspect spans and what the fix removes from it, the text after the fix and what it
inserts, the turn's own calls as recorded with what the fix removes from their arguments, each
call recovered or corrected with the arguments it added, changed or removed, the results it
records, and the repairs it made. The differences come from `inspector.review.diff` (text) and
`inspector.review.arguments_diff` (arguments)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from inspector.model import Finding, Fix, ToolCall, Turn
from inspector.review.arguments_diff import ArgumentsDiff, diff_arguments
from inspector.review.diff import TextDiff, diff_text, removal_diff
from inspector.support.lenient_json import parse_object_at
from inspector.support.safe_text import preview_value

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
    """One of the turn's own calls as recorded: its name, its arguments exactly as stored (as
    text), the (start, end, kind) spans of that text the fix removes or replaces, and whether the
    fix renames the call."""

    name: str
    arguments: str
    faults: tuple[tuple[int, int, str], ...] = ()
    renamed: bool = False


@dataclass(frozen=True)
class FixPreview:
    """The turn before and after one fix, and what the fix did, line by line: `suspect_spans`,
    the spans of the original text the finding flags (what the fix cuts is in `text_diff`, the
    original text against the text `after` the fix); `recorded`, the turn's own calls as recorded."""

    original: str
    suspect_spans: tuple[tuple[int, int], ...]
    after: str
    calls: tuple[CallPreview, ...]
    results_added: tuple[str, ...]
    repairs: tuple[str, ...]
    summary: str
    text_diff: TextDiff = TextDiff()
    recorded: tuple[RecordedCall, ...] = ()


def preview(finding: Finding, turn: Turn, fix: Fix | None = None) -> FixPreview:
    """What the finding's fix (or `fix`, an edited one say) changes in `turn`."""
    fix = fix if fix is not None else finding.fix
    spans = (finding.span,) if finding.span else ()
    if fix is None:
        return FixPreview(turn.text, spans, turn.text, (), (), _repairs(finding), "", recorded=recorded_calls(turn))
    text_diff = removal_diff(turn.text, fix.remove) if fix.text is None else diff_text(turn.text, fix.text)
    arguments, names = dict(fix.replace_arguments), dict(fix.rename_calls)
    return FixPreview(
        turn.text,
        spans,
        fix.apply_to_text(turn.text),
        recovered_calls(fix.add_calls) + corrected_calls(turn, arguments, names),
        results_added(fix),
        _repairs(finding),
        fix.summary,
        text_diff,
        recorded_calls(turn, arguments, names),
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
    """The turn's own calls as recorded, each marked where its stored arguments differ from the
    new `arguments` (by call index: what a fix leaves them as) and whether `names` renames it."""
    arguments, names = arguments or {}, names or {}
    return tuple(
        RecordedCall(
            call.name,
            stored_text(call),
            _faults(call, arguments.get(index, call.arguments)),
            names.get(index, call.name) != call.name,
        )
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


def _faults(call: ToolCall, new: Any) -> tuple[tuple[int, int, str], ...]:
    """The spans of the call's stored arguments that new arguments `new` remove or replace (white
    space aside): an extra `}`, a quote of the wrong kind, an argument dropped."""
    if new is None or new == call.arguments:
        return ()
    text = stored_text(call)
    wanted = json.dumps(new, ensure_ascii="\\u" in text)
    return tuple(
        (start, end, kind) for start, end, kind in diff_text(text, wanted).before_spans() if text[start:end].strip()
    )


def results_added(fix: Fix) -> tuple[str, ...]:
    """One line for each result a fix records (for a call never answered)."""
    return tuple(f"{r.name or 'tool'} ({r.call_id or 'no id'}): {preview_value(r.content)}" for r in fix.add_results)


def _repairs(finding: Finding) -> tuple[str, ...]:
    """The repairs a detector lists in its payload (`repairs` for broken JSON, `changes` for
    schema fixes), one line each."""
    payload = finding.payload
    if not isinstance(payload, dict):
        return ()
    listed = payload.get("repairs") or payload.get("changes") or ()
    return tuple(str(item) for item in listed) if isinstance(listed, (list, tuple)) else ()
