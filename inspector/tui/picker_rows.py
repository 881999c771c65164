"""What a picker row shows and what Enter on it opens: a scanned session's cells (file, session,
findings by kind, turn count, format) and its target, kept instead of the session itself."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import NamedTuple

from rich.text import Text

from inspector.scan.scanner import ScanResult
from inspector.support.safe_text import neutralise


class RowTarget(NamedTuple):
    """What Enter on a picker row opens: the session at `session` in the file at `path`, or the
    database's conversation `conversation`; nothing when both are None: the file is unreadable,
    for the reason `error` (the line the scan gave)."""

    path: Path
    session: int | None
    conversation: str | None = None
    error: str = ""


def session_row(path: Path, index: int, result: ScanResult, sessions: int) -> tuple[str, RowTarget, tuple[Text, ...]]:
    """The table row of one session (its key, what it opens, and its cells as plain text): all the
    picker keeps of it."""
    session = result.session
    label = session.session_id or (f"{index + 1} of {sessions}" if sessions > 1 else "")
    return f"{index}:{path}", RowTarget(path, index), (Text(neutralise(path.name)), Text(neutralise(label)),
                                                      *result_cells(result))


def result_cells(result: ScanResult) -> tuple[Text, Text, Text]:
    """A scanned session's findings by kind, turn count and format, as the picker shows them."""
    return findings_by_kind(result), Text(f"{len(result.session.turns):,}", justify="right"), Text(result.session.format)


def findings_by_kind(result: ScanResult) -> Text:
    """'3 result-prefix, 1 orphan-call', or 'none' in a muted colour."""
    counts = Counter(finding.kind for finding in result.findings)
    if not counts:
        return Text("none", style="dim")
    return Text(", ".join(f"{n} {kind}" for kind, n in counts.most_common()))
