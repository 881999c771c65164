"""The findings and rates of a dataset scan as tables for a warehouse (`--findings-out DIR`).

Two Parquet tables: `DIR/findings`, one row per finding (the file, its format, the session, the
turn and its id, the role, the kind, the severity, the tool and the message), and `DIR/rates`, one
row per session, model and tool: the calls counted and the count of each rated kind (the `--json`
report's rates, before they are summed up), so a warehouse can sum them by any grain (a day, a
model, a tool) and divide. Rows are made on the executors, from the summaries they made.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from inspector.scan.rates import KINDS
from inspector.scan.spark.executor import Scanned

FINDINGS, RATES = "findings", "rates"
FINDING_COLUMNS = (
    ("file", "string"),
    ("format", "string"),
    ("session", "string"),
    ("turn", "int"),
    ("turn_id", "string"),
    ("role", "string"),
    ("kind", "string"),
    ("severity", "string"),
    ("tool", "string"),
    ("message", "string"),
)
RATE_COLUMNS = (
    ("file", "string"),
    ("format", "string"),
    ("session", "string"),
    ("model", "string"),
    ("tool", "string"),
    ("calls", "bigint"),
    ("kinds", "map<string,bigint>"),
)


def schema(columns: tuple[tuple[str, str], ...]) -> str:
    """The table's schema as Spark's DDL: `name type, ...`."""
    return ", ".join(f"`{name}` {kind}" for name, kind in columns)


def finding_rows(scanned: Scanned) -> Iterator[tuple[Any, ...]]:
    """One row per finding of a scanned file (or conversation), in `FINDING_COLUMNS`' order."""
    for summary in scanned.summaries:
        for finding in summary.findings:
            yield (
                str(summary.path),
                summary.format,
                summary.session_id,
                finding.turn,
                finding.turn_id,
                finding.role,
                finding.kind,
                finding.severity,
                finding.tool,
                finding.message,
            )


def rate_rows(scanned: Scanned) -> Iterator[tuple[Any, ...]]:
    """One row per session, model and tool with calls or rated findings, in `RATE_COLUMNS`' order."""
    for summary in scanned.summaries:
        rates = summary.rates
        pairs: set[tuple[str, str | None]] = {*rates.calls, *((model, tool) for model, tool, _ in rates.kinds)}
        for model, tool in sorted(pairs, key=_by_model_then_tool):
            yield (
                str(summary.path),
                summary.format,
                summary.session_id,
                model,
                tool,
                rates.calls[model, tool] if tool is not None else 0,
                {kind: rates.kinds[model, tool, kind] for kind in KINDS},
            )


def _by_model_then_tool(pair: tuple[str, str | None]) -> tuple[str, bool, str]:
    """Sorts a (model, tool) pair by model, then tool, the findings that name no tool last."""
    model, tool = pair
    return model, tool is None, tool or ""
