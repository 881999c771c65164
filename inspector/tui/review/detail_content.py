"""What the selected turn's detail shows, as Textual `Content`: the original text beside the
repair, the finding below them; or, in the whole-turn view, the turn as the export will write it
with every approved fix applied.

Everything shown comes from the view of a repaired turn (`inspector.view.repaired_turn`: one fix,
or the whole turn), whose diffs say which spans differ: the original side marks only what the fix
removes or replaces (and the span the finding flags), the repair side only what it inserts, and of
the arguments only those added, changed or removed. Model text is plain `Content` (never markup)
with escape sequences neutralised; the spans are styles on it, in theme colours that read on dark
and light themes alike.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass

from textual.content import Content, Span
from textual.highlight import highlight

from inspector.model import ARGUMENTS_LOST, Finding, ToolResult, Turn
from inspector.repair.execute import ExecutionResult
from inspector.support.safe_text import neutralise, preview_value
from inspector.tui.themes import json_highlight
from inspector.view.arguments_diff import laid_out, path_name
from inspector.view.calls import CallPreview, RecordedCall, recorded_calls
from inspector.view.repaired_turn import RepairedTurn
from inspector.view.results import result_text
from inspector.view.word_diff import REPLACED

# What a fix takes away (original side), what it brings (repair side), a value it changes, and the
# span a finding flags: the foreground is the theme's text colour, so it contrasts with the tinted
# background on dark and light themes alike, never a syntax colour on a tint.
REMOVED = "$text on $error-muted"
INSERTED = "$text on $success-muted"
CHANGED = "$text on $warning-muted"
SUSPECT = "bold underline"
HEADING = "bold $text-accent"
MUTED = "$text-muted"
_LOST = "Its arguments did not parse; the agent kept its parser's error in their place, not the text:"


@dataclass(frozen=True)
class FindingView:
    """What the detail shows for one finding: the finding, its preview, status, place in the turn,
    and its recovered calls as the person's executor ran them (if it did)."""

    finding: Finding
    preview: RepairedTurn
    status: str
    number: int  # 1-based, among the turn's findings
    of: int
    runs: tuple[ExecutionResult, ...] = ()


@dataclass(frozen=True)
class TurnView:
    """What the whole-turn view shows of a flagged turn: the turn as exported with its approved
    fixes applied (`preview`), each of its findings with its status, and the number (1-based) of
    the finding the decision keys act on."""

    preview: RepairedTurn
    findings: tuple[tuple[Finding, str], ...]
    number: int


def marked(text: str, spans: Iterable[tuple[int, int, str]]) -> Content:
    """`text` as plain content with each (start, end, style) span of it styled, later spans over
    earlier ones; hidden characters are shown as escapes (`neutralise`) piece by piece, so each
    span still covers the characters it named."""
    spans = [(max(0, start), min(end, len(text)), style) for start, end, style in spans]
    cuts = sorted({0, len(text)} | {cut for start, end, _ in spans if end > start for cut in (start, end)})
    pieces, at = [], {}
    length = 0
    for start, end in itertools.pairwise(cuts):
        at[start] = length
        pieces.append(neutralise(text[start:end]))
        length += len(pieces[-1])
    at[len(text)] = length
    return Content("".join(pieces), [Span(at[start], at[end], style) for start, end, style in spans if end > start])


def _plain(text: str) -> Content:
    return Content(neutralise(text))


def original_content(preview: RepairedTurn) -> Content:
    """The turn's recorded text with the flagged spans underlined and what the fix removes or
    replaces marked, then its calls as recorded, marked the same way, then its results."""
    text = preview.original
    if not text:
        head = Content("") if preview.results else Content.styled("(no text)", MUTED)
    else:
        head = marked(
            text,
            [(start, end, SUSPECT) for start, end in preview.suspect_spans]
            + [(start, end, REMOVED) for start, end, _ in preview.text_diff.before_spans()],
        )
    calls = recorded_content(preview.recorded)
    return head + calls + results_content(preview.results, bool(text or preview.recorded))


def unflagged_content(turn: Turn) -> Content:
    """A turn nothing flags, as recorded: its text, its calls and its results."""
    return original_content(
        RepairedTurn(turn.text, (), turn.text, (), (), (), "", recorded=recorded_calls(turn), results=turn.tool_results)
    )


def results_content(results: tuple[ToolResult, ...], after: bool) -> Content:
    """Each result as recorded, in full (after a blank line when something is shown `after`): a
    heading naming its tool and call, marked as an error when it reports one, then what it says."""
    blocks = []
    for result in results:
        heading = Content.assemble(
            ("Error from " if result.is_error else "Result of ", "bold $text-error" if result.is_error else HEADING),
            (neutralise(result.name or "a tool"), "bold"),
            (f" (call {neutralise(result.call_id)})" if result.call_id else "", MUTED),
        )
        text = result_text(result.content)
        blocks.append(heading + Content("\n") + (_plain(text) if text else Content.styled("(empty result)", MUTED)))
    shown = Content("\n\n").join(blocks)
    return Content("\n\n") + shown if blocks and after else shown


def recorded_content(calls: tuple[RecordedCall, ...]) -> Content:
    """The turn's own calls with their arguments exactly as recorded (broken ones included), the
    spans a fix removes or replaces marked, and the name of a call the fix renames."""
    parts = []
    for call in calls:
        name = Content.styled(neutralise(call.name), "bold" + (" " + REMOVED if call.renamed else ""))
        parts += [Content(""), Content.assemble(("Call as recorded ", HEADING), name)]
        if call.call.origin == ARGUMENTS_LOST:  # the agent kept a parse error, not the arguments
            parts.append(Content.styled(_LOST, MUTED))
        parts.append(marked(call.arguments, [(start, end, REMOVED) for start, end, _ in call.faults]))
    return Content("\n").join([Content("")] + parts) if parts else Content("")


def repair_content(
    preview: RepairedTurn,
    heading: str = "Text after the fix",
    runs: tuple[ExecutionResult, ...] = (),
    kept_calls: bool = False,
) -> Content:
    """The text after the fix with what it inserts marked, with `kept_calls` the turn's own calls
    no fix changes, each recovered or corrected call (a recovered call the person's executor ran
    in `runs` with its result), and the results the fix adds."""
    if not preview.summary:
        return Content.styled("No automatic fix for this finding: edit it (e) or skip it (s).", MUTED)
    parts: list[Content] = [Content.styled(heading, HEADING)]
    if preview.after:
        parts.append(
            marked(
                preview.after,
                [
                    (start, end, CHANGED if kind == REPLACED else INSERTED)
                    for start, end, kind in preview.text_diff.after_spans()
                ],
            )
        )
    else:
        parts.append(Content.styled("(empty)", MUTED))
    for kept in preview.recorded if kept_calls else ():
        if kept.replaced_by is None and not kept.renamed:
            name = Content.styled(neutralise(kept.name), "bold")
            parts += [Content(""), Content.assemble(("Call kept as recorded ", HEADING), name), _plain(kept.arguments)]
    for call in preview.calls:
        run = _run_of(call, runs)
        parts.append(Content(""))
        parts.append(_call_heading(call, run))
        parts.append(arguments_content(call))
        if run is not None:
            parts.append(Content.styled("Result from your executor", HEADING))
            parts.append(Content.styled(preview_value(run.result.content, 200), "" if run.ok else "$text-error"))
    for result in preview.results_added:
        parts.append(Content(""))
        parts.append(Content.styled("Result recorded", HEADING))
        parts.append(_plain(_result_line(result)))
    return Content("\n").join(parts)


def _result_line(result: ToolResult) -> str:
    """A result a fix records, in a line: the tool, the call it answers, what it says."""
    return f"{result.name or 'tool'} ({result.call_id or 'no id'}): {preview_value(result.content)}"


def _run_of(call: CallPreview, runs: tuple[ExecutionResult, ...]) -> ExecutionResult | None:
    """The run of this recovered call (same name and arguments), if the executor ran it."""
    if call.origin != "recovered":
        return None
    return next((run for run in runs if run.call.name == call.name and run.call.arguments == call.arguments), None)


def _call_heading(call: CallPreview, run: ExecutionResult | None = None) -> Content:
    if call.origin != "recovered":
        origin = "corrected call"
    elif run is None:
        origin = "recovered call, not executed"
    else:
        origin = "recovered call, executed" if run.ok else "recovered call, run with an error"
    heading = Content.assemble((origin.capitalize() + " ", HEADING), (neutralise(call.name), "bold"))
    if call.renamed_from:
        heading += Content.styled(f" (was {neutralise(call.renamed_from)})", MUTED)
    return heading + Content("\n") + _arguments_legend(call)


def _arguments_legend(call: CallPreview) -> Content:
    """One line naming the marks of the arguments (added, changed) and the arguments removed; or
    saying that none changed."""
    diff, parts = call.diff, []
    if diff.added or diff.changed:
        legend = [("added", INSERTED)] * bool(diff.added) + [("changed", CHANGED)] * bool(diff.changed)
        parts.append(
            Content(", ").join(Content.styled(word, style) for word, style in legend)
            + Content.styled(" by the fix", MUTED)
        )
    if diff.removed:
        names = ", ".join(path_name(path) for path in sorted(diff.removed, key=str))
        parts.append(Content.assemble(("removed", REMOVED), ": ", names))
    if not parts and call.arguments is not None:
        parts.append(Content.styled("same arguments: only how they were written is repaired", MUTED))
    return Content(" · ").join(parts)


def arguments_content(call: CallPreview) -> Content:
    """The call's arguments as indented JSON, highlighted, with only the arguments the fix added
    or changed marked (nested ones too)."""
    if call.arguments is None:
        return Content.styled("(arguments could not be recovered)", MUTED)
    source, spans = laid_out(call.arguments)
    code = highlight(source, language="json", theme=json_highlight())
    marks = [(path, INSERTED) for path in call.diff.added] + [(path, CHANGED) for path in call.diff.changed]
    for path, style in marks:
        if path in spans:
            code = code.stylize(style, *spans[path])
    return code


def finding_content(view: FindingView) -> Content:
    """The finding's kind, severity, status, message, whether the call ran, and the repairs."""
    finding, preview = view.finding, view.preview
    severity_style = {"error": "bold $text-error", "warning": "bold $text-warning"}.get(
        finding.severity, "bold $text-primary"
    )
    head = Content.assemble(
        (finding.kind, "bold"),
        " · ",
        (finding.severity, severity_style),
        " · ",
        (view.status, "bold"),
        (f" · turn {finding.turn}", MUTED),
    )
    if view.of > 1:
        head += Content.styled(f" · finding {view.number} of {view.of} ([ ] to switch, w: whole turn)", MUTED)
    lines = [head, _plain(finding.message)]
    facts = []
    if finding.tool:
        facts.append(f"tool: {neutralise(finding.tool)}")
    if finding.executed is not None:
        facts.append("the call ran" if finding.executed else "the call did not run")
    if facts:
        lines.append(Content(" · ".join(facts)))
    if preview.summary:
        lines.append(Content.assemble(("fix: ", HEADING), neutralise(preview.summary)))
    lines.extend(Content.assemble(("  - ", MUTED), neutralise(repair)) for repair in preview.repairs)
    for run in view.runs:
        lines.append(
            Content.assemble(("ran: ", HEADING), (neutralise(run.describe()), "" if run.ok else "$text-error"))
        )
        lines.append(Content.assemble(("  result: ", MUTED), preview_value(run.result.content, 200)))
    return Content("\n").join(lines)


def turn_content(view: TurnView) -> Content:
    """The whole-turn view's facts: what was applied, then each finding of the turn with its status,
    the one the decision keys act on pointed at."""
    lines = [
        Content.assemble(("whole turn as exported", "bold"), (" · w shows one finding again", MUTED)),
        _plain(view.preview.summary),
    ]
    for number, (finding, status) in enumerate(view.findings, 1):
        pointer = "▸ " if number == view.number else "  "
        fix = f" · fix: {neutralise(finding.fix.summary)}" if finding.fix is not None else " · no automatic fix"
        lines.append(
            Content.assemble(pointer, (f"{number} {finding.kind}", "bold"), " · ", (status, "bold"), (fix, MUTED))
        )
    return Content("\n").join(lines)
