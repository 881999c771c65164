"""What Spark's executors run: session files' bytes, or a table's rows grouped by conversation,
read into sessions by the project's own readers, through every detector, into the summaries the
reports need (`inspector.scan.summary`). Imports no PySpark: executors get these functions by name
and import `inspector` themselves.

Each file (or conversation) gives one `Scanned`: its place in the report's order, its summaries, and
the error that stopped it, a one-line `InspectorError` as a scan in one process would print.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from inspector.detect import detect_findings
from inspector.errors import InspectorError
from inspector.model import ToolSpec
from inspector.scan.scanner import ScanResult
from inspector.scan.summary import SessionSummary, summarise
from inspector.sources.companion_files import lists_one_of
from inspector.sources.files.document import document_of_bytes
from inspector.sources.files.session_file import sessions_of_document
from inspector.sources.files.text_logs import HEAD_BYTES, TEXT_LOG_SUFFIXES, is_text_log_name, starts_as_text_log
from inspector.sources.schemas.table import NAME as TABLE_FORMAT
from inspector.sources.schemas.table import WHOLE_TABLE, table_session
from inspector.support.gc_pause import collector_paused
from inspector.support.safe_text import shown_name

_LOCAL = "file:"
# what the executors read (JSON, JSON Lines, text logs); SQLite files and archives need the file itself
READ_SUFFIXES = (".json", ".jsonl", ".traj", *TEXT_LOG_SUFFIXES)


class ScanOptions(NamedTuple):
    """How to read and check what the executors get: `--format`, `--tools` and `--session`."""

    format_name: str | None = None
    extra_tools: tuple[ToolSpec, ...] = ()
    only: str | None = None


class Scanned(NamedTuple):
    """One file's (or one conversation's) summaries, `order` its place in the report, and the
    error that stopped its scan (None when none did)."""

    order: Any
    summaries: list[SessionSummary]
    error: str | None = None


class MessageTable(NamedTuple):
    """A table of messages read on Spark (a Parquet dataset): where it is, as its sessions name it,
    and whether a column names each message's conversation (without one the table is one)."""

    path: Path | str
    keyed: bool
    format: str = TABLE_FORMAT


def shown_path(uri: str) -> Path | str:
    """The name a report gives the file Spark calls `uri`: a local path for a `file:` URI (as a
    scan in one process names it), else the URI itself (`s3a://bucket/key`). Spark's URIs are not
    escaped (`file:/data/a b#1.json`), so none is unescaped here."""
    if not uri.startswith(_LOCAL):
        return uri
    path = uri.removeprefix(_LOCAL)
    return Path("/" + path[2:].partition("/")[2] if path.startswith("//") else path)  # file://host/path too


def scan_files(rows: Iterable[Any], options: ScanOptions, lists: Mapping[str, frozenset[str]]) -> Iterator[Scanned]:
    """Each file of a partition of Spark's `binaryFile` rows (`path`, `content`) scanned; a
    Markdown or text file that no format claims (a README) is left out, and so is a list of
    sessions (`lists`: its URI, and its folder's file names) naming one of its folder's, as a
    local folder scan leaves them out (`inspector.sources.session_files`)."""
    for row in rows:
        path = shown_path(row.path)
        if is_text_log_name(str(path)) and not starts_as_text_log(path, bytes(row.content[:HEAD_BYTES])):
            continue
        names = lists.get(row.path)
        if names is not None and lists_one_of(row.path.rpartition("/")[2], bytes(row.content), names):
            continue
        yield scan_file_bytes(path, row.content, options)


def scan_file_bytes(path: Path | str, content: bytes, options: ScanOptions) -> Scanned:
    """The file `path`, whose bytes are `content`, read and scanned as `inspector scan` scans it."""
    try:
        if not str(path).endswith(READ_SUFFIXES):
            raise InspectorError(
                f"{shown_name(path)}: --engine spark reads JSON and JSON Lines session files; scan this one without it"
            )
        with collector_paused():
            sessions = sessions_of_document(document_of_bytes(path, content), options.format_name)
            summaries = [
                summarise(ScanResult(session, detect_findings(session, options.extra_tools)))
                for session in sessions
                if options.only is None or session.session_id == options.only
            ]
    except InspectorError as error:
        return Scanned(str(path), [], str(error))
    return Scanned(str(path), summaries)


def scan_conversations(rows: Iterable[Any], table: MessageTable, options: ScanOptions) -> Iterator[Scanned]:
    """Each conversation of a partition of rows (`session`, `messages`: a list of (`order`, `row`,
    `id`, `role`, `content`)) put in order and scanned, as `--table/--map` reads an SQLite table."""
    for row in rows:
        messages = sorted(row.messages, key=_message_order)
        numbered = [
            (message.id if message.id is not None else number, message.role, message.content, row.session)
            for number, message in enumerate(messages, start=1)
        ]
        session_id = str(row.session) if table.keyed else WHOLE_TABLE
        with collector_paused():
            session = table_session(table, session_id, numbered)
            summary = summarise(ScanResult(session, detect_findings(session, options.extra_tools)))
        yield Scanned(_null_first(row.session), [summary])


def _message_order(message: Any) -> tuple:
    """A message's place in its conversation: by `order`, then `id`, then as read (NULL first, as SQLite sorts)."""
    return _null_first(message.order), _null_first(message.id), message.row


def _null_first(value: Any) -> tuple[bool, Any]:
    return (value is not None, value)
