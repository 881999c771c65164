"""The rates block of the reports: each session's rates (`inspector.scan.rates`) summed up, as the
`--json` report's `rates` object, as a few lines of the text report, and the kinds and rows the
HTML and Markdown tables show (those with a finding: an all-zero column or row is left out)."""

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


RATES_TITLE = "Rates of the kinds about tool calls"
NOTHING_RATED = "no finding of a kind about tool calls"
LINE_WIDTH = 100  # characters: a line of the text report's rates block, as its findings' messages
NAMES_WIDTH = 27  # characters: the indent of the kinds past a row's first line (the names' column)


def rate_lines(rates: dict[str, Any]) -> list[str]:
    """A short "Rates" block for the text report: the totals, then only the models and tools with
    findings, each with its kinds that occur (wrapped between kinds at `LINE_WIDTH`, the lines after
    the first indented past the names)."""

    def lines(label: str, entry: dict[str, Any]) -> list[str]:
        kinds = [
            f"{kind} {v['count']} ({v['per_100_calls']:.2f})"
            for kind, v in entry["kinds"].items()
            if entry["calls"] and v["count"]
        ]
        calls = f"{entry['calls']} call{'s' if entry['calls'] != 1 else ''}"
        return _wrapped(f"  {preview(label, 40):<24} {calls}:", kinds or [NOTHING_RATED])

    return [
        f"{RATES_TITLE} (count, per 100 tool calls)",
        *(line for row in rate_rows(rates["total"]) for line in lines(*row)),
    ]


def _wrapped(head: str, items: list[str]) -> list[str]:
    """`head` then the items joined by commas, in lines of `LINE_WIDTH` characters at most where
    they fit (an item is never cut; the first is always on the head's line), those after the first
    indented by `NAMES_WIDTH`."""
    lines, line = [], head
    for number, item in enumerate(items):
        piece = item if number == len(items) - 1 else f"{item},"
        if number and len(line) + 1 + len(piece) > LINE_WIDTH:
            lines.append(line)
            line = " " * (NAMES_WIDTH - 1)
        line = f"{line} {piece}"
    return [*lines, line]


def rate_cell(value: dict[str, Any] | None) -> str:
    """A kind's count and rate in a row of the HTML and Markdown tables, blank when none is found
    (most cells of a table of many kinds)."""
    if not value or not value["count"]:
        return ""
    rate = value["per_100_calls"]
    return f"{value['count']:,}" + (f" ({rate:.2f})" if rate is not None else "")


def rated_kinds(total: dict[str, Any]) -> list[str]:
    """The kinds with a finding in `total` (the rates of all sessions), in the reports' order."""
    return [kind for kind, value in total["kinds"].items() if value["count"]]


def rate_rows(total: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The rows of a rates table: all sessions, then each model and each tool with a finding."""
    rows = [("all sessions", total)]
    for group, prefix in (("by_model", "model"), ("by_tool", "tool")):
        rows.extend(
            (f"{prefix} {name}", entry)
            for name, entry in total[group].items()
            if any(value["count"] for value in entry["kinds"].values())
        )
    return rows
