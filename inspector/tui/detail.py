"""The selected turn's detail: original text beside the repair, and the finding below them.

Everything shown comes from `inspector.review.preview.preview`; model text is plain `Content` (never
markup) with escape sequences neutralised, and spans are marked with `Content.stylize`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.highlight import highlight
from textual.widgets import Static

from inspector.model import Finding, Turn
from inspector.repair.execute import ExecutionResult
from inspector.review.preview import CallPreview, FixPreview
from inspector.support.safe_text import neutralise, preview_value

SUSPECT = "bold $text-error on $error-muted"
CHANGED = "on $success-muted"
HEADING = "bold $text-accent"
MUTED = "$text-muted"


@dataclass(frozen=True)
class FindingView:
    """What the detail shows for one finding: the finding, its preview, status, place in the turn,
    and its recovered calls as the person's executor ran them (if it did)."""

    finding: Finding
    preview: FixPreview
    status: str
    number: int  # 1-based, among the turn's findings
    of: int
    runs: tuple[ExecutionResult, ...] = ()


class TurnDetail(Vertical):
    """Original and repair side by side, the finding's facts below."""

    DEFAULT_CSS = """
    TurnDetail { height: 1fr; }
    TurnDetail #turn-header { height: 1; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
    TurnDetail #sides { height: 1fr; }
    TurnDetail .pane, TurnDetail #finding-pane {
        border: round $foreground 25%; border-title-color: $text-accent; padding: 0 1;
    }
    TurnDetail .pane { width: 1fr; }
    TurnDetail .pane:focus { border: round $accent; }
    TurnDetail #finding-pane { height: auto; max-height: 45%; }  /* leaves the sides room on 24 rows */
    """

    def compose(self) -> ComposeResult:
        yield Static(id="turn-header")
        with Horizontal(id="sides"):
            with VerticalScroll(classes="pane", id="original-pane") as pane:
                pane.border_title = "Original"
                yield Static(id="original")
            with VerticalScroll(classes="pane", id="repair-pane") as pane:
                pane.border_title = "Repair"
                yield Static(id="repair")
        with VerticalScroll(id="finding-pane") as pane:
            pane.border_title = "Finding"
            yield Static(id="finding")

    def show_header(self, header: Content) -> None:
        """Show the header line above the panes (the turn, and where its call's result is)."""
        self.query_one("#turn-header", Static).update(header)

    def show(self, turn: Turn | None, view: FindingView | None) -> None:
        """Show `turn` and, when it is flagged, one of its findings."""
        original, repair, finding = self.query_one("#original", Static), self.query_one("#repair", Static), \
            self.query_one("#finding", Static)
        if turn is None:
            for static in (original, repair, finding):
                static.update("")
            return
        if view is None:
            text = _plain(turn.text) if turn.text else Content.styled("(no text)", MUTED)
            original.update(text + recorded_calls(turn))
            repair.update(Content.styled("Nothing flagged in this turn.", MUTED))
            finding.update(Content.styled(f"Turn {turn.position} · {turn.role}", MUTED))
            return
        original.update(original_content(view.preview, turn))
        repair.update(repair_content(view.preview, view.runs))
        finding.update(finding_content(view))
        for pane in self.query(".pane"):
            pane.scroll_home(animate=False)


def _plain(text: str) -> Content:
    return Content(neutralise(text))


def original_content(preview: FixPreview, turn: Turn) -> Content:
    """The turn's recorded text with each suspect span highlighted, then its calls as recorded."""
    text = preview.original
    pieces: list[Content] = [] if text else [Content.styled("(no text)", MUTED)]
    cursor = 0
    for start, end in _merged(preview.suspect_spans, len(text)):
        pieces.append(_plain(text[cursor:start]))
        pieces.append(_plain(text[start:end]).stylize(SUSPECT))
        cursor = end
    pieces.append(_plain(text[cursor:]))
    return Content("").join(pieces + [recorded_calls(turn)])


def recorded_calls(turn: Turn) -> Content:
    """The turn's own calls with their arguments exactly as recorded (broken ones included)."""
    parts = []
    for call in turn.tool_calls:
        raw = call.arguments_raw if isinstance(call.arguments_raw, str) else json.dumps(
            call.arguments_raw, ensure_ascii=False)
        parts += [Content(""), Content.assemble(("Call as recorded ", HEADING), (neutralise(call.name), "bold")),
                  _plain(raw)]
    return Content("\n").join([Content("")] + parts) if parts else Content("")


def _merged(spans: tuple[tuple[int, int], ...], length: int) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        start, end = max(0, min(start, length)), max(0, min(end, length))
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        elif end > start:
            merged.append((start, end))
    return merged


def repair_content(preview: FixPreview, runs: tuple[ExecutionResult, ...] = ()) -> Content:
    """The text after the fix, each recovered or corrected call (a recovered call the person's
    executor ran in `runs` with its result), and the results the fix adds."""
    if not preview.summary:
        return Content.styled("No automatic fix for this finding: edit it (e) or skip it (s).", MUTED)
    parts: list[Content] = [Content.styled("Text after the fix", HEADING)]
    parts.append(_plain(preview.after) if preview.after else Content.styled("(empty)", MUTED))
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
        parts.append(_plain(result))
    return Content("\n").join(parts)


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
    if call.changed:
        heading += Content.assemble("\n", ("highlighted", CHANGED), (": what the fix added or changed", MUTED))
    return heading


def arguments_content(call: CallPreview) -> Content:
    """The call's arguments as indented JSON, highlighted, with the changed top-level keys marked."""
    if call.arguments is None:
        return Content.styled("(arguments could not be recovered)", MUTED)
    source = neutralise(json.dumps(call.arguments, indent=2, ensure_ascii=False))
    code = highlight(source, language="json")
    starts = [0]
    for line in source.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    keys = {'  ' + neutralise(json.dumps(key, ensure_ascii=False)) + ':': key for key in call.changed}
    entry_start: int | None = None
    for start, end in zip(starts, starts[1:]):
        line = source[start:end]
        top_level = line.startswith('  "') or line.startswith("}")
        if top_level and entry_start is not None:
            code = code.stylize(CHANGED, entry_start, start)
            entry_start = None
        if any(line.startswith(prefix) for prefix in keys):
            entry_start = start
    return code


def finding_content(view: FindingView) -> Content:
    """The finding's kind, severity, status, message, whether the call ran, and the repairs."""
    finding, preview = view.finding, view.preview
    severity_style = {"error": "bold $text-error", "warning": "bold $text-warning"}.get(finding.severity,
                                                                                        "bold $text-primary")
    head = Content.assemble(
        (finding.kind, "bold"), " · ", (finding.severity, severity_style), " · ",
        (view.status, "bold"), (f" · turn {finding.turn}", MUTED),
    )
    if view.of > 1:
        head += Content.styled(f" · finding {view.number} of {view.of} ([ ] to switch)", MUTED)
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
        lines.append(Content.assemble(("ran: ", HEADING), (neutralise(run.describe()), "" if run.ok else "$text-error")))
        lines.append(Content.assemble(("  result: ", MUTED), preview_value(run.result.content, 200)))
    return Content("\n").join(lines)
