"""A flagged turn as an export will write it: the fixes approved so far applied together, by the
export's own code (`inspector.repair.apply.apply_fixes`), and previewed against the turn as
recorded in the same shape as one fix (`inspector.review.preview.FixPreview`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from inspector.model import Finding, Session, Turn, remove_spans
from inspector.repair.apply import apply_fixes
from inspector.review.diff import TextDiff, diff_text, removal_diff
from inspector.review.preview import FixPreview, corrected_calls, recorded_calls, recovered_calls, results_added


def exported_preview(turn: Turn, findings: Sequence[Finding], approved: Sequence[Finding]) -> FixPreview:
    """`turn` as exported with the fixes of `approved` (its approved findings, each carrying the
    fix to apply: the edited one if edited) and no other; `findings`: all of the turn's, whose
    spans are the suspect ones."""
    probe = replace(turn, raw=object())  # marks the turn among those the export writes in its place
    fixed, applied = apply_fixes(Session("", None, (probe,)), approved)
    written = next(t for t in fixed.turns if t.raw is probe.raw)
    fixes = [finding.fix for finding in approved if finding.fix is not None]
    calls = written.tool_calls if len(written.tool_calls) == len(turn.tool_calls) else turn.tool_calls
    arguments = {
        i: new.arguments for i, (old, new) in enumerate(zip(turn.tool_calls, calls)) if new.arguments != old.arguments
    }
    names = {i: new.name for i, (old, new) in enumerate(zip(turn.tool_calls, calls)) if new.name != old.name}
    recovered = tuple(call for fix in fixes for call in fix.add_calls) if applied else ()
    return FixPreview(
        original=turn.text,
        suspect_spans=tuple(sorted(f.span for f in findings if f.span)),
        after=written.text,
        calls=recovered_calls(recovered) + corrected_calls(turn, arguments, names),
        results_added=tuple(line for fix in fixes for line in results_added(fix)) if applied else (),
        repairs=(),
        summary=_summary(len(findings), len(fixes), bool(applied)),
        text_diff=_text_diff(turn.text, written.text, [span for fix in fixes for span in fix.remove]),
        recorded=recorded_calls(turn, arguments, names),
    )


def _text_diff(before: str, after: str, removed: list[tuple[int, int]]) -> TextDiff:
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
    return (
        f"{approved} of {findings} fixes approved, applied together as the export will apply them (the others are not)"
    )
