"""The rates block of the reports: each session's rates (`inspector.scan.rates`) summed up, as the
`--json` report's `rates` object and as a few lines of the text report."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from inspector.scan.rates import Rates
from inspector.scan.summary import SessionSummary
from inspector.support.safe_text import preview


def compute_rates(summaries: Sequence[SessionSummary]) -> dict[str, Any]:
    """The `rates` object of the `--json` report: `total` and one entry per session."""
    total, sessions = Rates(), []
    for summary in summaries:
        total.update(summary.rates)
        sessions.append({"path": str(summary.path), "session_id": summary.session_id, **summary.rates.to_json()})
    return {"total": total.to_json(), "sessions": sessions}


def rate_lines(rates: dict[str, Any]) -> list[str]:
    """A short "Rates" block for the text report: the totals, then only the models and tools with
    findings, each with its kinds that occur."""

    def line(label: str, entry: dict[str, Any], every: bool = False) -> str:
        kinds = ", ".join(
            f"{kind} {v['count']} ({v['per_100_calls']:.2f})"
            for kind, v in entry["kinds"].items()
            if entry["calls"] and (every or v["count"])
        )
        calls = f"{entry['calls']} call{'s' if entry['calls'] != 1 else ''}"
        return f"  {preview(label, 40):<24} {calls}" + (f": {kinds}" if kinds else "")

    total = rates["total"]
    lines = ["Rates (count, per 100 tool calls)", line("all sessions", total, every=True)]
    for group, prefix in (("by_model", "model"), ("by_tool", "tool")):
        lines.extend(
            line(f"{prefix} {name}", entry)
            for name, entry in total[group].items()
            if any(v["count"] for v in entry["kinds"].values())
        )
    return lines
