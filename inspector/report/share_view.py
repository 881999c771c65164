"""What a shared report (`inspector report --html/--markdown`) shows, built once from the scan's
summaries and rendered by the HTML and Markdown writers alike.

The totals, the findings by kind and the rates (`total`, with `by_model` and `by_tool`) are the
`--json` report's. Each flagged turn of each flagged conversation is shown as it is and as `fix`
would write it: all of the turn's fixes applied together, the one view of a repaired turn the app
shows too (`inspector.view.repaired_turn`), laid out as blocks of text with the changes and the
flagged spans marked (`turn_blocks`). With `redact`, each turn's parts are compared once masked,
their spans moved onto the masked text, and then every string of the view, whatever its field,
is masked (`masked_view`: the one place a report is redacted). Texts stay as the session holds them: each
writer escapes them for its own output.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from inspector.model import Finding
from inspector.report.masked_view import masked
from inspector.report.redact import Redacted, redact_text
from inspector.report.turn_blocks import Block, Shown, turn_sides
from inspector.scan.rates import Rates
from inspector.scan.summary import SessionSummary
from inspector.view.repaired_turn import repaired_turn

NO_FIX = "No automatic fix: what to do is for a person to decide."
LEFT_AS_IS = "Not repaired automatically: the fixes together would leave an empty reply (edit it in the app)."


@dataclass(frozen=True)
class FindingView:
    """One finding as listed above its turn."""

    kind: str
    severity: str
    message: str
    status: str
    fix: str


@dataclass(frozen=True)
class TurnView:
    """A flagged turn: its findings, the original and the repaired side (empty, with `note`
    saying why, when nothing would be repaired)."""

    position: int
    turn_id: str | None
    role: str
    findings: tuple[FindingView, ...]
    original: tuple[Block, ...]
    repaired: tuple[Block, ...]
    note: str = ""


@dataclass(frozen=True)
class ConversationView:
    """A conversation with findings, and its flagged turns in order."""

    path: str
    session_id: str | None
    format: str
    turn_count: int
    finding_count: int
    problems: tuple[str, ...]
    turns: tuple[TurnView, ...]


@dataclass(frozen=True)
class ReportView:
    """The whole shared report: what was read and when, totals, findings by kind (most first), the
    `--json` report's rates (`total`, with `by_model` and `by_tool`), the flagged conversations and
    the errors."""

    sources: tuple[str, ...]
    generated: str
    sessions: int
    turns: int
    findings: int
    by_kind: tuple[tuple[str, int], ...]
    rates: dict[str, Any]
    conversations: tuple[ConversationView, ...]
    errors: tuple[str, ...]
    redacted: bool


def build_view(
    summaries: Sequence[SessionSummary],
    errors: Sequence[str] = (),
    redact: bool = False,
    sources: Sequence[str] = (),
    generated: str = "",
) -> ReportView:
    """The report of the scanned sessions (and of the files that could not be read) of `sources`,
    made at `generated`; with `redact`, secrets and e-mail addresses masked in every text it shows
    (every string of the view, whatever its field: `masked_view`)."""
    shown = redact_text if redact else Redacted
    by_kind: dict[str, int] = {}
    rates = Rates()
    for summary in summaries:
        rates.update(summary.rates)
        for finding in summary.findings:
            by_kind[finding.kind] = by_kind.get(finding.kind, 0) + 1
    view = ReportView(
        sources=tuple(sources),
        generated=generated,
        sessions=len(summaries),
        turns=sum(summary.turn_count for summary in summaries),
        findings=sum(by_kind.values()),
        by_kind=tuple(sorted(by_kind.items(), key=lambda item: (-item[1], item[0]))),
        rates=rates.to_json(),
        conversations=tuple(_conversation(summary, shown) for summary in summaries if summary.findings),
        errors=tuple(errors),
        redacted=redact,
    )
    return masked(view) if redact else view


def _conversation(summary: SessionSummary, shown: Shown) -> ConversationView:
    by_turn: dict[int, list[Finding]] = {}
    for finding in summary.findings:
        by_turn.setdefault(finding.turn, []).append(finding)
    turns = tuple(_turn(summary, position, findings, shown) for position, findings in sorted(by_turn.items()))
    return ConversationView(
        str(summary.path),
        summary.session_id,
        summary.format,
        summary.turn_count,
        len(summary.findings),
        summary.problems,
        turns,
    )


def _turn(summary: SessionSummary, position: int, findings: list[Finding], shown: Shown) -> TurnView:
    """A flagged turn; its blocks are compared as `shown` (masked, with `--redact`)."""
    first = findings[0]
    listed = tuple(map(_finding, findings))
    turn = summary.turn_at(position)
    if turn is None:  # a finding about the session rather than one of its turns
        return TurnView(position, first.turn_id, first.role, listed, (), (), NO_FIX)
    fixable = [finding for finding in findings if finding.fix is not None]
    original, repaired = turn_sides(turn, repaired_turn(turn, findings, fixable), shown)
    note = "" if repaired else LEFT_AS_IS if fixable else NO_FIX
    return TurnView(position, turn.id, turn.role, listed, original, repaired, note)


def _finding(finding: Finding) -> FindingView:
    status = ""
    if finding.tool:
        status = finding.tool + {True: ", ran", False: ", not executed", None: ""}[finding.executed]
    fix = finding.fix.summary if finding.fix is not None else ""
    return FindingView(finding.kind, finding.severity, finding.message, status, fix)
