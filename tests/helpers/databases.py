"""Reading an SQLite history back in tests: its rows, and the kinds a scan finds in each conversation."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from pathlib import Path

from inspector.model import ToolSpec
from inspector.scan.scanner import iter_scan
from inspector.sources import open_source


def fetch_all(path: Path, sql: str) -> list[tuple]:
    """The rows `sql` selects from the database at `path`, opened read-only."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def kinds_by_session(
    path: Path, format_name: str | None = None, extra_tools: Iterable[ToolSpec] = (), only: str | None = None
) -> dict[str, list[str]]:
    """The kinds of the findings of each session a scan of `path` reads, by session id."""
    results = iter_scan(open_source(path, format_name), extra_tools, only)
    return {r.session.session_id: [f.kind for f in r.findings] for r in results}
