"""What a picker row shows and what Enter on it opens: a scanned session's cells (file, session,
findings by kind, turn count, format) and its target, kept instead of the session itself; and the
row of one of the person's own session files (tool, project, date, then its turns and findings)."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Iterable, NamedTuple

from rich.text import Text

from inspector.scan.scanner import ScanResult
from inspector.sources.discovery import FoundSession, tilde
from inspector.support.safe_text import neutralise

PROJECT_WIDTH, ERROR_WIDTH = 24, 40  # a longer project is shown by its end, a longer error by its start


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
    return _counted(Counter(finding.kind for finding in result.findings))


def found_row(found: FoundSession, home: Path) -> tuple[str, tuple[Text, ...], tuple[Text, ...]]:
    """The row of one of the person's session files: its key, the cells known before it is read
    (tool, project with `home` shown as `~`, date modified) and those shown until it is scanned."""
    date = time.strftime("%Y-%m-%d %H:%M", time.localtime(found.modified))
    return (row_key(found), (Text(found.tool), Text(neutralise(shown_project(found.project, home))), Text(date)),
            (Text(""), Text("scanning…", style="dim")))


def row_key(found: FoundSession) -> str:
    """The key of the row of one of the person's session files."""
    return f"found:{found.path}"


def shown_project(project: str, home: Path) -> str:
    """`project` with the home folder as `~`, cut to its last PROJECT_WIDTH characters."""
    project = tilde(Path(project), home) if project else ""
    return project if len(project) <= PROJECT_WIDTH else "…" + project[-(PROJECT_WIDTH - 1):]


def file_cells(results: Iterable[ScanResult]) -> tuple[Text, Text]:
    """A scanned file's turn count and findings by kind, all its sessions together (each session
    is counted as it comes, none is kept)."""
    counts: Counter[str] = Counter()
    turns = 0
    for result in results:
        counts.update(finding.kind for finding in result.findings)
        turns += len(result.session.turns)
    return Text(f"{turns:,}", justify="right"), _counted(counts)


def database_cells(listed: list[tuple[str, int]]) -> tuple[Text, Text]:
    """A history's row: how many messages and conversations (Enter lists and scans them)."""
    messages = sum(count for _, count in listed)
    return Text(f"{messages:,}", justify="right"), Text(f"{len(listed):,} conversations, Enter lists them", style="italic")


def error_cells(error: str, path: Path) -> tuple[Text, Text]:
    """An unreadable file's row: no turns, and why (the scan's line without the file's path, cut
    to ERROR_WIDTH characters: Enter shows it whole)."""
    reason = error.removeprefix(f"{path}: ")
    reason = reason if len(reason) <= ERROR_WIDTH else reason[:ERROR_WIDTH - 1] + "…"
    return Text(""), Text(neutralise(reason), style="red")


def _counted(counts: Counter[str]) -> Text:
    if not counts:
        return Text("none", style="dim")
    return Text(", ".join(f"{n} {kind}" for kind, n in counts.most_common()))
