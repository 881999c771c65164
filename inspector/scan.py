"""Scanning: load a session file and run every detector over each of its sessions."""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Iterator

from inspector.detectors import detect_findings
from inspector.formats import iter_sessions
from inspector.model import Finding, Session, ToolCall, ToolSpec, Turn


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


def outline(result: ScanResult) -> ScanResult:
    """The result with only what the reports use: every turn's place and role, the names of its
    calls, and the whole of the turns with findings. A long history's reports so keep a small
    skeleton of each conversation instead of all its text and arguments; a turn without calls
    becomes a shared skeleton (turns are values), so a million of them cost a few thousand objects."""
    flagged = {finding.turn for finding in result.findings}
    turns = tuple(turn if turn.position in flagged
                  else Turn(turn.position, turn.role, "", None, _call_names(turn.tool_calls), (), turn.raw)
                  if turn.tool_calls else _skeleton(turn.position, turn.role)
                  for turn in result.session.turns)
    return ScanResult(replace(result.session, turns=turns), result.findings)


@lru_cache(maxsize=1 << 16)
def _skeleton(position: int, role: str) -> Turn:
    return Turn(position, role, "")


def _call_names(calls: tuple[ToolCall, ...]) -> tuple[ToolCall, ...]:
    return tuple(ToolCall(None, sys.intern(call.name), None, None) for call in calls)
