"""Scanning: load a session file and run every detector over each of its sessions."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from inspector.detectors import detect_findings
from inspector.formats import load_sessions
from inspector.model import Finding, Session, ToolSpec


@dataclass(frozen=True)
class ScanResult:
    """One session and what the detectors found in it."""

    session: Session
    findings: list[Finding]


def scan_file(path: Path, format_name: str | None = None, extra_tools: Iterable[ToolSpec] = ()) -> list[ScanResult]:
    """Every session in the file at `path` with its findings."""
    extra = tuple(extra_tools)
    return [ScanResult(session, detect_findings(session, extra)) for session in load_sessions(path, format_name)]
