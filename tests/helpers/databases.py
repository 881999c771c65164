"""Reading an SQLite history back in tests: its rows, the kinds a scan finds in each conversation,
and the SQL schemas that recognise its tables."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from contextlib import closing
from pathlib import Path

from inspector.model import ToolSpec
from inspector.scan.scanner import iter_scan
from inspector.sources import open_source
from inspector.sources.schemas import SCHEMAS


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


def schemas_recognising(path: Path) -> list[str]:
    """The names of the SQL schemas that recognise the database's tables and their columns."""
    with closing(sqlite3.connect(path)) as connection:
        tables = {
            name: {column for _, column, *_ in connection.execute(f'PRAGMA table_info("{name}")')}
            for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
    return [name for name, schema in SCHEMAS.items() if schema.recognise and schema.recognise(None, tables)]
