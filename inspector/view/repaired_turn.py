"""One view of a repaired turn: what the turn was, what it becomes with fixes, and the changes
between them: the text's diff, the calls recovered or corrected (renamed ones too) with their
arguments' diffs, the turn's own calls as recorded with what the fixes remove from them, and the
results recorded.

Two ways to build it. `repaired_turn` applies fixes together as an export or `fix` writes them
(`inspector.repair.apply.apply_fixes`, the one way fixes are applied) and keeps the turns written
in the turn's place: the app's whole turn as exported (the approved fixes) and the shared report
(every proposed fix) show this. `fix_preview` shows what one fix alone changes (the proposal, or
a person's edit of it), for the app's detail of one finding.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from inspector.model import Finding, Fix, Session, Span, ToolResult, Turn, remove_spans
from inspector.repair.apply import apply_fixes
from inspector.view.calls import CallPreview, RecordedCall, corrected_calls, recorded_calls, recovered_calls
from inspector.view.word_diff import TextDiff, diff_text, removal_diff


@dataclass(frozen=True)
class RepairedTurn:
    """A turn before and after fixes. `original`, its text, with `suspect_spans`, the spans its
    findings flag; `after`, the text once fixed, and `text_diff` from one to the other; `calls`,
    the calls the fixes recover then those they correct; `results_added`, the results they record
    for calls never answered; `repairs`, what a detector lists of its repair; `summary`, what was
    applied, in a line; `recorded`, the turn's own calls as recorded, and `results`, its own
    results. `written`: the turns
    written in the turn's place (recovered calls and their results, the turn as fixed, the results
    recorded), when the fixes were applied together (`repaired_turn`) and change something, else
    empty; `fixed`, among them, the turn itself (None when nothing is written in its place)."""

    original: str
    suspect_spans: tuple[Span, ...]
    after: str
    calls: tuple[CallPreview, ...]
    results_added: tuple[ToolResult, ...]
    repairs: tuple[str, ...]
    summary: str
    text_diff: TextDiff = TextDiff()
    recorded: tuple[RecordedCall, ...] = ()
    results: tuple[ToolResult, ...] = ()
    written: tuple[Turn, ...] = ()
    fixed: Turn | None = None


def fix_preview(finding: Finding, turn: Turn, fix: Fix | None = None) -> RepairedTurn:
    """What the finding's fix (or `fix`, an edited one say) alone changes in `turn`."""
    fix = fix if fix is not None else finding.fix
    spans = (finding.span,) if finding.span else ()
    if fix is None:
        return RepairedTurn(
            turn.text,
            spans,
            turn.text,
            (),
            (),
            _repairs(finding),
            "",
            recorded=recorded_calls(turn),
            results=turn.tool_results,
        )
    text_diff = removal_diff(turn.text, fix.remove) if fix.text is None else diff_text(turn.text, fix.text)
    arguments, names = dict(fix.replace_arguments), dict(fix.rename_calls)
    return RepairedTurn(
        turn.text,
        spans,
        fix.apply_to_text(turn.text),
        recovered_calls(fix.add_calls) + corrected_calls(turn, arguments, names),
        fix.add_results,
        _repairs(finding),
        fix.summary,
        text_diff,
        recorded_calls(turn, arguments, names),
        turn.tool_results,
    )


def repaired_turn(turn: Turn, findings: Sequence[Finding], to_apply: Sequence[Finding]) -> RepairedTurn:
    """`turn` as written with the fixes of `to_apply` applied together (each finding carrying the
    fix to apply: a person's edited one, say) and no other; `findings`: all of the turn's, whose
    spans are the suspect ones."""
    probe = replace(turn, raw=object())  # marks the turn among those written in its place
    repaired, applied = apply_fixes(Session("", None, (probe,)), to_apply)
    place = next(index for index, written in enumerate(repaired.turns) if written.raw is probe.raw)
    fixed = replace(repaired.turns[place], raw=turn.raw)
    fixes = [finding.fix for finding in to_apply if finding.fix is not None]
    calls = fixed.tool_calls if len(fixed.tool_calls) == len(turn.tool_calls) else turn.tool_calls
    arguments = {
        i: new.arguments for i, (old, new) in enumerate(zip(turn.tool_calls, calls)) if new.arguments != old.arguments
    }
    names = {i: new.name for i, (old, new) in enumerate(zip(turn.tool_calls, calls)) if new.name != old.name}
    recovered = tuple(call for fix in fixes for call in fix.add_calls) if applied else ()
    return RepairedTurn(
        original=turn.text,
        suspect_spans=tuple(sorted(f.span for f in findings if f.span)),
        after=fixed.text,
        calls=recovered_calls(recovered) + corrected_calls(turn, arguments, names),
        results_added=tuple(result for fix in fixes for result in fix.add_results) if applied else (),
        repairs=(),
        summary=_summary(len(findings), len(fixes), bool(applied)),
        text_diff=_text_diff(turn.text, fixed.text, [span for fix in fixes for span in fix.remove]),
        recorded=recorded_calls(turn, arguments, names),
        results=turn.tool_results,
        written=repaired.turns[:place] + (fixed,) + repaired.turns[place + 1 :] if applied else (),
        fixed=fixed if applied else None,
    )


def _text_diff(before: str, after: str, removed: list[Span]) -> TextDiff:
    """The exact diff when the fixes only cut spans, else one found by comparing."""
    if before == after:
        return TextDiff()
    return removal_diff(before, removed) if remove_spans(before, removed) == after else diff_text(before, after)


def _summary(findings: int, approved: int, applied: bool) -> str:
    if not approved:
        return f"no fix approved yet: exported as recorded ({findings} pending or skipped)"
    if not applied:
        return (
            "the approved fixes together would leave the reply with nothing: exported as recorded "
            "(edit the text to keep something)"
        )
    if findings == 1:
        return "its fix approved, applied as the export will apply it"
    return (
        f"{approved} of {findings} fixes approved, applied together as the export will apply them (the others are not)"
    )


def _repairs(finding: Finding) -> tuple[str, ...]:
    """The repairs a detector lists in its payload (`repairs` for broken JSON, `changes` for
    schema fixes), one line each."""
    payload = finding.payload
    if not isinstance(payload, dict):
        return ()
    listed = payload.get("repairs") or payload.get("changes") or ()
    return tuple(str(item) for item in listed) if isinstance(listed, (list, tuple)) else ()
