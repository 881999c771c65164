"""What one finding's fix changes in its turn, in the shape a reviewer reads: the original text
with the suspect spans, the text after the fix, each call recovered or corrected with the
arguments it changed, the results it records, and the repairs it made."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspector.model import Finding, Fix, Turn
from inspector.support.safe_text import preview_value

RECOVERED_CALL = "recovered"
CORRECTED_CALL = "corrected"


@dataclass(frozen=True)
class CallPreview:
    """A call after the fix: `origin` is "recovered" (a new call, never executed) or "corrected"
    (the turn's own call with new arguments or a new name); `changed` names the top-level
    arguments the fix added or changed; `renamed_from` is the old name of a renamed call."""

    name: str
    arguments: dict[str, Any] | None
    origin: str
    changed: frozenset[str] = frozenset()
    renamed_from: str | None = None


@dataclass(frozen=True)
class FixPreview:
    """The turn before and after one fix, and what the fix did, line by line."""

    original: str
    suspect_spans: tuple[tuple[int, int], ...]
    after: str
    calls: tuple[CallPreview, ...]
    results_added: tuple[str, ...]
    repairs: tuple[str, ...]
    summary: str


def preview(finding: Finding, turn: Turn, fix: Fix | None = None) -> FixPreview:
    """What the finding's fix (or `fix`, an edited one say) changes in `turn`."""
    fix = fix if fix is not None else finding.fix
    spans = {finding.span} if finding.span else set()
    if fix is None:
        return FixPreview(turn.text, tuple(sorted(spans)), turn.text, (), (), _repairs(finding), "")
    spans.update(fix.remove)
    calls = tuple(CallPreview(c.name, c.arguments, RECOVERED_CALL, frozenset(c.arguments or ())) for c in fix.add_calls)
    results = tuple(f"{r.name or 'tool'} ({r.call_id or 'no id'}): {preview_value(r.content)}" for r in fix.add_results)
    return FixPreview(turn.text, tuple(sorted(spans)), fix.apply_to_text(turn.text), calls + _corrected(fix, turn),
                      results, _repairs(finding), fix.summary)


def _corrected(fix: Fix, turn: Turn) -> tuple[CallPreview, ...]:
    """The turn's own calls the fix gives new arguments or a new name, in call order."""
    arguments, names = dict(fix.replace_arguments), dict(fix.rename_calls)
    previews = []
    for index in sorted(set(arguments) | set(names)):
        if not 0 <= index < len(turn.tool_calls):
            continue
        call = turn.tool_calls[index]
        new = arguments.get(index, call.arguments)
        old = call.arguments if isinstance(call.arguments, dict) else {}
        changed = frozenset(key for key in (new or {}) if key not in old or old[key] != new[key])
        name = names.get(index, call.name)
        previews.append(CallPreview(name, new, CORRECTED_CALL, changed, call.name if name != call.name else None))
    return tuple(previews)


def _repairs(finding: Finding) -> tuple[str, ...]:
    """The repairs a detector lists in its payload (`repairs` for broken JSON, `changes` for
    schema fixes), one line each."""
    payload = finding.payload
    if not isinstance(payload, dict):
        return ()
    listed = payload.get("repairs") or payload.get("changes") or ()
    return tuple(str(item) for item in listed) if isinstance(listed, (list, tuple)) else ()
