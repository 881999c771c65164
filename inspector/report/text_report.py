"""The readable report of `inspector scan`: each finding with a preview of the suspect text and of
what would remain, then totals by kind, like a dry run before anything is changed. A secret found
in a turn is never shown: every preview of that turn shows its mask instead."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from inspector.model import Finding, Turn, masked_text
from inspector.report.rates import compute_rates, rate_lines
from inspector.scan.summary import SessionSummary
from inspector.support.counted_words import counted
from inspector.support.safe_text import PREVIEW_SCAN, neutralise, preview, shown_name

# Characters of a session's problem shown: its words whole (a line, where it is, what was kept), a
# name it quotes from the file cut short.
PROBLEM_WIDTH = 200


def render_report(summaries: Sequence[SessionSummary]) -> str:
    """The whole report as text, neutralised for the terminal as a whole: whatever a session or a
    file name holds (model text, tool names, argument keys, ids, paths) is shown, never obeyed; a
    path or session id that holds a line break or another control character is quoted (`shown_name`)."""
    lines: list[str] = []
    for summary in summaries:
        lines.extend(_session_lines(summary))
    lines.append(_summary_line(summaries))
    lines.extend(_kind_lines(summaries))
    rates = compute_rates(summaries)
    if rates["total"]["calls"]:
        lines.extend(rate_lines(rates))
    return neutralise("\n".join(lines) + "\n")


def _session_lines(summary: SessionSummary) -> list[str]:
    label = f" session {shown_name(summary.session_id)}" if summary.session_id else ""
    count = len(summary.findings)
    lines = [
        f"{shown_name(summary.path)}{label}  ({shown_name(summary.format)}, {counted(summary.turn_count, 'turn', 'turns')}, "
        f"{counted(count, 'finding', 'findings')})"
    ]
    masks = _masks_by_turn(summary.findings)
    for finding in summary.findings:
        lines.extend(_finding_lines(finding, summary.turn_at(finding.turn), masks.get(finding.turn, ())))
    lines.extend(f"  problem: {preview(problem, PROBLEM_WIDTH)}" for problem in summary.problems)
    lines.append("")
    return lines


def _masks_by_turn(findings: Sequence[Finding]) -> dict[int, tuple[tuple[str, str], ...]]:
    """The secrets the findings of each turn mask, with their masks (the longest first, so a secret
    holding another is masked whole)."""
    masks: dict[int, set[tuple[str, str]]] = {}
    for finding in findings:
        if finding.fix is not None and finding.fix.masks:
            masks.setdefault(finding.turn, set()).update(finding.fix.masks)
    return {turn: tuple(sorted(pairs, key=lambda pair: -len(pair[0]))) for turn, pairs in masks.items()}


def _finding_lines(finding: Finding, turn: Turn | None, masks: tuple[tuple[str, str], ...]) -> list[str]:
    where = f"turn {finding.turn}" + (f" ({preview(finding.turn_id, 24)})" if finding.turn_id else "")
    status = ""
    if finding.tool:
        status = f"  {finding.tool}" + {True: ", ran", False: ", not executed", None: ""}[finding.executed]
    lines = [f"  {where}  {finding.severity:<7}  {finding.kind}{status}"]
    lines.extend(textwrap.wrap(finding.message, 100, initial_indent="      ", subsequent_indent="      "))
    if turn is not None and finding.span:
        start, end = finding.span
        lines.append(f"      found:  {_masked_preview(turn.text, masks, start, end)}")
    if finding.fix is not None:
        if turn is not None and (fixed := finding.fix.apply_to_text(turn.text)) != turn.text:  # not for calls alone
            lines.append(f"      text:   {_masked_preview(fixed, masks)}")
        lines.append(f"      fix:    {finding.fix.summary}")
    return lines


def _masked_preview(text: str, masks: tuple[tuple[str, str], ...], start: int = 0, end: int | None = None) -> str:
    """`preview` of `text[start:end]` with the turn's secrets masked: only the part a preview looks
    at (and a secret's length past it, so one cut there is masked whole) is copied."""
    if not masks:
        return preview(text, 100, start, end)
    end = len(text) if end is None else min(end, len(text))
    longest = max(len(secret) for secret, _ in masks)
    return preview(masked_text(text[start : min(end, start + PREVIEW_SCAN + longest)], masks), 100)


def _summary_line(summaries: Sequence[SessionSummary]) -> str:
    turns = sum(summary.turn_count for summary in summaries)
    findings = sum(len(summary.findings) for summary in summaries)
    sessions = len(summaries)
    return f"{counted(sessions, 'session', 'sessions')}, {counted(turns, 'turn', 'turns')}, {counted(findings, 'finding', 'findings')}"


def _kind_lines(summaries: Sequence[SessionSummary]) -> list[str]:
    counts: dict[str, list[Finding]] = {}
    for summary in summaries:
        for finding in summary.findings:
            counts.setdefault(finding.kind, []).append(finding)
    lines = []
    width = max([16, *map(len, counts)])  # the kinds' counts in one column
    for kind, findings in sorted(counts.items()):
        not_run = sum(f.executed is False for f in findings)
        ran = sum(f.executed is True for f in findings)
        detail = f"  ({not_run} not executed, {ran} ran)" if not_run or ran else ""
        lines.append(f"  {kind:<{width}} {len(findings)}{detail}")
    return lines
