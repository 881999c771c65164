"""What a picker row holds and shows: what Enter on it opens (`RowTarget`), the `ListedRow` of a
scanned session or of one of the person's own session files, what a scan tells of a row
(`Scanned`: turns, format, findings by kind, the keys its review status is read by, its rates),
and each column's cell, as plain text (never markup) cut with "…" when its column is narrower."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from rich.console import JustifyMethod
from rich.text import Text

from inspector.model import Location
from inspector.scan.rates import Rates, session_rates
from inspector.support.counted_words import counted as counted_words
from inspector.support.safe_text import neutralise, shown_name
from inspector.tui.picker.review_status import DECIDED, EXPORTED, SessionKeys, review_keys
from inspector.tui.picker.view import ListedRow

if TYPE_CHECKING:
    from inspector.review.anchors import FindingKey
    from inspector.review.review_file import SessionKey
    from inspector.scan.scanner import ScanResult
    from inspector.scan.summary import SessionSummary
    from inspector.sources.discovery import FoundSession

PROJECT_WIDTH, ERROR_WIDTH = 24, 40  # a longer project is shown by its end, a longer error by its start
SCANNING = "scanning…"
STATUS_STYLES = {DECIDED: "cyan", EXPORTED: "green", "?": "red"}  # pending: as plain text


class RowTarget(NamedTuple):
    """What Enter on a picker row opens: the session at `session` in the file at `path`, or the
    database's conversation `conversation`; nothing when both are None: the file is unreadable,
    for the reason `error` (the line the scan gave)."""

    path: Location
    session: int | None
    conversation: str | None = None
    error: str = ""


class Scanned(NamedTuple):
    """What scanning tells of a row: its turn count, format, findings by kind (None: not
    counted, `note` says why), each session's review key with its findings' keys, its rates, and
    `note`, shown in place of the findings (why the file is `unreadable`, or what Enter lists)."""

    turns: int | None
    format: str
    kinds: Counter[str] | None
    sessions: tuple[tuple[SessionKey, SessionKeys], ...] = ()
    rates: Rates | None = None
    note: str = ""
    unreadable: bool = False


def take(row: ListedRow, scanned: Scanned) -> None:
    """Put what the scan told in `row` (its status is read from the review, by its `sessions`)."""
    row.turns, row.kinds, row.sessions = scanned.turns, scanned.kinds, scanned.sessions
    row.format = scanned.format or row.format
    row.note, row.unreadable = scanned.note, scanned.unreadable


def scanned_session(result: ScanResult, key: SessionKey) -> Scanned:
    """A scanned session's values; `key` names it in its file's review."""
    session, findings = result.session, result.findings
    return Scanned(
        len(session.turns),
        session.format,
        Counter(finding.kind for finding in findings),
        ((key, review_keys(session, findings)),),
        session_rates(session, findings),
    )


def scanned_file(results: Iterable[ScanResult], by_id: bool, summaries: list[SessionSummary] | None = None) -> Scanned:
    """A file's values, all its sessions together (each counted as it comes, none kept); `by_id`:
    its review names sessions by id (a database's), else by place. `summaries` gets each
    session's summary, as the scan's cache keeps it."""
    from inspector.scan.summary import summarise  # loaded with the scan: it is scanning

    kinds: Counter[str] = Counter()
    rates, turns = Rates(), 0
    sessions: list[tuple[SessionKey, SessionKeys]] = []
    formats: set[str] = set()
    for place, result in enumerate(results):
        session, findings = result.session, result.findings
        kinds.update(finding.kind for finding in findings)
        rates.update(session_rates(session, findings))
        turns += len(session.turns)
        sessions.append((str(session.session_id) if by_id else place, review_keys(session, findings)))
        formats.add(session.format)
        if summaries is not None:
            summaries.append(summarise(result))
    return Scanned(turns, ", ".join(sorted(formats)), kinds, tuple(sessions), rates)


def kept_file(summaries: Sequence[SessionSummary], anchors: Sequence[tuple[FindingKey, ...]]) -> Scanned:
    """A file's values from its sessions' summaries and their findings' keys in its review, as
    the search index keeps them (`inspector.search.scan_cache`): what `scanned_file` gives when
    it reads the file (its review names sessions by place)."""
    from inspector.review.review_file import finding_keys

    kinds: Counter[str] = Counter()
    rates, turns = Rates(), 0
    sessions: list[tuple[SessionKey, SessionKeys]] = []
    for place, (summary, keys) in enumerate(zip(summaries, anchors, strict=True)):
        kinds.update(finding.kind for finding in summary.findings)
        rates.update(summary.rates)
        turns += summary.turn_count
        sessions.append((place, SessionKeys(keys, tuple(finding_keys(summary.findings)))))
    formats = ", ".join(sorted({summary.format for summary in summaries}))
    return Scanned(turns, formats, kinds, tuple(sessions), rates)


def with_subagents(main: Scanned, subagents: Sequence[Scanned]) -> Scanned:
    """A session file's values with its subagents' transcripts' added: their turns, findings by
    kind and rates (a transcript that cannot be read adds nothing: opening it says why). The
    review status stays the session file's: each file keeps its own review."""
    if not subagents or main.kinds is None or main.turns is None:
        return main
    kinds, rates, turns = Counter(main.kinds), Rates(), main.turns
    for each in (main, *subagents):
        if each.kinds is not None and each.turns is not None and each.rates is not None:
            rates.update(each.rates)
            if each is not main:
                kinds.update(each.kinds)
                turns += each.turns
    return main._replace(turns=turns, kinds=kinds, rates=rates)


def kept_sessions(
    path: Location, summaries: Sequence[SessionSummary], anchors: Sequence[tuple[FindingKey, ...]]
) -> list[tuple[RowTarget, ListedRow, Scanned]]:
    """The rows of a file's sessions from their summaries and their findings' keys in a review, as
    the search index keeps them: what scanning the file gives each (its review names sessions by
    place)."""
    from inspector.review.review_file import finding_keys

    rows = []
    for place, (summary, keys) in enumerate(zip(summaries, anchors, strict=True)):
        label = session_label(summary.session_id, place, len(summaries))
        kinds = Counter(finding.kind for finding in summary.findings)
        held = ((place, SessionKeys(keys, tuple(finding_keys(summary.findings)))),)
        scanned = Scanned(summary.turn_count, summary.format, kinds, held, summary.rates)
        rows.append((RowTarget(path, place), session_row(path, place, label), scanned))
    return rows


def unreadable(reason: str) -> Scanned:
    """An unreadable file's values: no turns, and why."""
    return Scanned(None, "unreadable", None, note=reason, unreadable=True)


def short_reason(error: str, path: Location) -> str:
    """The scan's line without the file's path, cut to ERROR_WIDTH characters (Enter shows it whole)."""
    reason = error.removeprefix(f"{shown_name(path)}: ")
    return reason if len(reason) <= ERROR_WIDTH else reason[: ERROR_WIDTH - 1] + "…"


def database_note(listed: list[tuple[str, int]], schema: str) -> Scanned:
    """A history's row: how many messages and conversations (Enter lists and scans them)."""
    listing = counted_words(len(listed), "conversation, Enter lists it", "conversations, Enter lists them")
    return Scanned(sum(count for _, count in listed), schema, None, note=listing)


def session_label(session_id: str | None, place: int, count: int) -> str:
    """What names a session of a file of `count` sessions in its row: its id, else its place when
    the file holds several."""
    return session_id or (f"{place + 1} of {count}" if count > 1 else "")


def session_row(path: Location, number: int, label: str) -> ListedRow:
    """The row of the session (a database's conversation) `number` of the file at `path`, named `label`."""
    return ListedRow(f"{number}:{path}", path, {"file": path.name, "session": label})


def found_row(found: FoundSession, home: Path) -> ListedRow:
    """The row of one of the person's session files, before it is read: tool, project (with
    `home` shown as `~`), date modified; its file's name is searched too."""
    date = time.strftime("%Y-%m-%d %H:%M", time.localtime(found.modified))
    return ListedRow(
        row_key(found),
        found.path,
        {"tool": found.tool, "project": shown_project(found.project, home), "date": date},
        words=found.path.name,
    )


def row_key(found: FoundSession) -> str:
    """The key of the row of one of the person's session files."""
    return f"found:{found.path}"


def shown_project(project: str, home: Path) -> str:
    """`project` with the home folder as `~`, cut to its last PROJECT_WIDTH characters."""
    from inspector.sources.discovery import tilde  # loaded already: the person's own sessions were found

    project = tilde(Path(project), home) if project else ""
    return project if len(project) <= PROJECT_WIDTH else "…" + project[-(PROJECT_WIDTH - 1) :]


def cell(row: ListedRow, column: str, width: int | None = None) -> Text:
    """The row's cell in `column` (`width` cells wide), as plain text cut with "…" when it does
    not fit."""
    text, style = cell_text(row, column, width), ""
    justify: JustifyMethod = "left"
    if column == "findings":
        style = "red" if row.unreadable else "italic" if row.note else "dim" if not row.scanned or not row.kinds else ""
    elif column == "format" and row.unreadable:
        style = "bold red"
    elif column == "status":
        style = STATUS_STYLES.get(row.status, "")
    elif column == "turns":
        justify = "right"
    return Text(text, style=style, justify=justify, overflow="ellipsis", no_wrap=True)


def cell_text(row: ListedRow, column: str, width: int | None = None) -> str:
    """The text of the row's cell in `column`; the findings of a column `width` cells wide name
    whole kinds, as many as fit, and how many more there are."""
    if column == "findings":
        return neutralise(row.note) or (SCANNING if row.kinds is None else counted(row.kinds, width))
    if column == "turns":
        return "" if row.turns is None else f"{row.turns:,}"
    if column == "format":
        return neutralise(row.format)
    if column == "status":
        return row.status
    return shown_name(row.names.get(column, ""))  # a name with a line break or an escape: one line, quoted


def counted(kinds: Counter[str], width: int | None = None) -> str:
    """'3 result-prefix, 1 orphan-call', or 'none'; within `width` cells, the most frequent kinds
    that fit whole and the number of the others: '3 result-prefix +2' (cut with "…" only when
    even the first does not fit)."""
    if not kinds:
        return "none"
    items = [f"{n} {kind}" for kind, n in kinds.most_common()]
    for shown in range(len(items), 0, -1):
        text = ", ".join(items[:shown]) + (f" +{len(items) - shown}" if shown < len(items) else "")
        if width is None or len(text) <= width:
            return text
    return items[0] + f" +{len(items) - 1}" if len(items) > 1 else items[0]
