"""Scanning: every detector run over each session a source gives."""

from __future__ import annotations

from collections.abc import Generator, Iterable
from dataclasses import dataclass
from pathlib import Path

from inspector.detect import detect_findings
from inspector.model import Finding, Session, ToolSpec
from inspector.sources import open_source
from inspector.sources.base import Source


@dataclass(frozen=True)
class ScanResult:
    """One session and what the detectors found in it."""

    session: Session
    findings: list[Finding]


def scan_file(path: Path, format_name: str | None = None, extra_tools: Iterable[ToolSpec] = ()) -> list[ScanResult]:
    """Every session kept at `path` with its findings."""
    return list(iter_scan(open_source(path, format_name), extra_tools))


def iter_scan(
    source: Source,
    extra_tools: Iterable[ToolSpec] = (),
    only: str | None = None,
    start: int = 0,
    scanned: Iterable[ScanResult] = (),
) -> Generator[ScanResult, None, None]:
    """Each session of `source` with its findings, one at a time (a history is read conversation
    by conversation); `only` keeps the session with that id, `start` skips the sessions before
    that number. A session of `scanned` (the very object: a file's sessions are read once and
    held, a history's are read again each time) is given back with its findings, not scanned again."""
    extra = tuple(extra_tools)
    known = {id(result.session): result for result in scanned}
    for session in source.sessions(only, start):
        result = known.get(id(session))
        yield (
            result
            if result is not None and result.session is session
            else ScanResult(session, detect_findings(session, extra))
        )
