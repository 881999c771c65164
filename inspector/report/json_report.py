"""The `--json` report: a stable contract for scripts and CI (schema 1).

Later versions add finding kinds and fields; they never change or remove these.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import msgspec

from inspector.model import Finding, Turn
from inspector.report.rates import compute_rates
from inspector.scan.summary import SessionSummary
from inspector.support.gc_pause import collector_paused
from inspector.support.safe_text import surrogates_escaped

SCHEMA = 1


def build_report(summaries: Sequence[SessionSummary], errors: Sequence[str] = ()) -> dict[str, Any]:
    """The report for the scanned sessions (and the files that could not be read): to be encoded or
    read, not changed (its rates entries without findings share one `kinds` object)."""
    with collector_paused():  # a dict and lists a finding, many thousands of them, and no cycle
        sessions = [_session(summary) for summary in summaries]
    by_kind: dict[str, int] = {}
    for summary in summaries:
        for finding in summary.findings:
            by_kind[finding.kind] = by_kind.get(finding.kind, 0) + 1
    return {
        "schema": SCHEMA,
        "sessions": sessions,
        "summary": {
            "sessions": len(summaries),
            "turns": sum(summary.turn_count for summary in summaries),
            "findings": sum(by_kind.values()),
            "by_kind": by_kind,
        },
        "errors": list(errors),
        "rates": compute_rates(summaries),
    }


def encode_json(report: dict[str, Any]) -> str:
    """The report as one line of compact JSON (non-ASCII text as is), written by msgspec: a
    million-message history's report is tens of MB, which `json.dumps` takes six times longer to write.
    A lone surrogate, which msgspec cannot encode, is written as its JSON escape (by `json`)."""
    try:
        return msgspec.json.encode(report).decode()
    except UnicodeEncodeError:
        return surrogates_escaped(json.dumps(report, ensure_ascii=False, separators=(",", ":")))


def finding_to_json(finding: Finding, turn: Turn | None) -> dict[str, Any]:
    """One finding in the report's shape; `fix.content` is the turn's text after this fix alone,
    `fix.replace_arguments` the corrected arguments of the turn's own calls (by index) and
    `fix.add_results` the results recorded after the turn and `fix.rename_calls` the new tool names
    of the turn's own calls (by index)."""
    proposed, fix = finding.fix, None
    if proposed is not None:  # (each list made only when it has items: most fixes have one kind of change)
        fix = {
            "content": proposed.apply_to_text(turn.text) if turn is not None else proposed.text,
            "tool_calls": [{"name": c.name, "arguments": c.arguments} for c in proposed.add_calls]
            if proposed.add_calls
            else [],
            "replace_arguments": [
                {"call": index, "arguments": arguments} for index, arguments in proposed.replace_arguments
            ]
            if proposed.replace_arguments
            else [],
            "add_results": [
                {"call_id": r.call_id, "name": r.name, "content": r.content, "is_error": r.is_error}
                for r in proposed.add_results
            ]
            if proposed.add_results
            else [],
            "rename_calls": [{"call": index, "name": name} for index, name in proposed.rename_calls]
            if proposed.rename_calls
            else [],
        }
    return {
        "turn": finding.turn,
        "turn_id": finding.turn_id,
        "role": finding.role,
        "kind": finding.kind,
        "severity": finding.severity,
        "message": finding.message,
        "span": list(finding.span) if finding.span else None,
        "tool": finding.tool,
        "arguments": finding.arguments,
        "payload": finding.payload,
        "executed": finding.executed,
        "fix": fix,
    }


def _session(summary: SessionSummary) -> dict[str, Any]:
    return {
        "path": str(summary.path),
        "session_id": summary.session_id,
        "format": summary.format,
        "turns": summary.turn_count,
        "findings": [finding_to_json(f, summary.turn_at(f.turn)) for f in summary.findings],
        "problems": list(summary.problems),
    }
