"""Reading one session file for the index: every session in it through `inspector.sources`, and
its findings through `inspector.scan`, turned into the rows the index keeps, and into the scan's
summaries (`summary_blob`: what a later scan takes instead of reading the file) with their
findings' keys in a review (`anchor_blob`: what the app's picker takes). A plain
function of plain values, so that a second process can run it (`indexer`)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import NamedTuple

from inspector.errors import InspectorError
from inspector.model import Location
from inspector.review.anchors import FindingKey
from inspector.scan.scanner import iter_scan
from inspector.scan.summary import SessionSummary, summarise
from inspector.search.anchor_blob import packed_anchors, review_anchors
from inspector.search.documents import SessionRows, session_rows
from inspector.search.fingerprint import Fingerprint, fingerprint
from inspector.search.summary_blob import packed
from inspector.sources import open_source
from inspector.support.gc_pause import collector_paused
from inspector.support.safe_text import shown_name

SERVER_READ = "server"  # the digest of a server's database: it has none (its time is when it was read)


class FileRows(NamedTuple):
    """A session file (or a server's database) as read: its fingerprint (None when it is gone),
    its sessions, the line saying why it could not be read ('' when it could), its sessions'
    summaries as the scan reports them, packed (None when they cannot be kept), and their
    findings' keys in a review, packed; `appended`: read after lines were appended to it, its
    sessions' unchanged turns kept as indexed."""

    path: Location
    fingerprint: Fingerprint | None
    sessions: list[SessionRows]
    error: str
    summaries: bytes | None = None
    anchors: bytes | None = None
    appended: bool = False


def read_file(path: Location, known: dict[int, dict[int, str]] | None = None) -> FileRows:
    """Every session of the file at `path` with its findings, as the index keeps them. The
    fingerprint is taken before reading: a file written meanwhile is read again next time.
    `known`: the file had lines appended since it was indexed with these turns (each session's
    turns' digests, by number): a turn whose digest is the same keeps its row (`documents`)."""
    try:
        taken = fingerprint(path) if isinstance(path, Path) else Fingerprint(0, time.time_ns(), SERVER_READ)
    except OSError:
        return FileRows(path, None, [], "")
    try:
        rows: list[SessionRows] = []
        summaries: list[SessionSummary] = []
        anchors: list[list[FindingKey]] = []
        with collector_paused():
            for number, result in enumerate(iter_scan(open_source(path))):
                turns = known.get(number, {}) if known is not None else None
                rows.append(session_rows(number, result.session, result.findings, turns))
                summaries.append(summarise(result))
                anchors.append(review_anchors(result))
    except InspectorError as error:
        return FileRows(path, taken, [], str(error))
    except Exception as error:  # one file a reader fails on never stops the index of the others
        return FileRows(path, taken, [], f"{shown_name(path)}: could not be read ({type(error).__name__})")
    return FileRows(path, taken, rows, "", packed(summaries), packed_anchors(anchors), known is not None)
