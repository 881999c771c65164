"""Scanning: load a session file and run every detector over each of its sessions."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from inspector.detect import detect_findings
from inspector.sources import iter_sessions
from inspector.model import Finding, Session, ToolSpec


@dataclass(frozen=True)
class ScanResult:
    """One session and what the detectors found in it."""

    session: Session
    findings: list[Finding]


def scan_file(path: Path, format_name: str | None = None, extra_tools: Iterable[ToolSpec] = ()) -> list[ScanResult]:
    """Every session in the file at `path` with its findings."""
    return list(iter_scan(path, format_name, extra_tools))


def iter_scan(path: Path, format_name: str | None = None, extra_tools: Iterable[ToolSpec] = (),
              table: str | None = None, mapping: dict[str, str] | None = None,
              only: str | None = None, start: int = 0) -> Iterator[ScanResult]:
    """Each session of the file at `path` with its findings, one at a time (an SQLite history is
    read conversation by conversation); `only` keeps the session with that id, `start` skips the
    sessions before that number, `table` and `mapping` name an SQLite table of any other schema."""
    extra = tuple(extra_tools)
    for session in iter_sessions(path, format_name, table, mapping, only, start):
        yield ScanResult(session, detect_findings(session, extra))
