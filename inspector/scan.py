"""Scanning: load a session file and run every detector over each of its sessions."""

from __future__ import annotations

import sys
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterable, Iterator

from inspector.detectors import detect_findings
from inspector.formats import iter_sessions, load_sessions
from inspector.model import Finding, Session, ToolCall, ToolSpec, Turn


@dataclass(frozen=True)
class ScanResult:
    """One session and what the detectors found in it."""

    session: Session
    findings: list[Finding]


def scan_file(path: Path, format_name: str | None = None, extra_tools: Iterable[ToolSpec] = ()) -> list[ScanResult]:
    """Every session in the file at `path` with its findings."""
    extra = tuple(extra_tools)
    return [ScanResult(session, detect_findings(session, extra)) for session in load_sessions(path, format_name)]


def iter_scan(path: Path, format_name: str | None = None, extra_tools: Iterable[ToolSpec] = (),
              table: str | None = None, mapping: dict[str, str] | None = None,
              only: str | None = None) -> Iterator[ScanResult]:
    """Each session of the file at `path` with its findings, one at a time (an SQLite history is
    read conversation by conversation); `only` keeps the session with that id, `table` and
    `mapping` name an SQLite table of any other schema."""
    extra = tuple(extra_tools)
    for session in iter_sessions(path, format_name, table, mapping, only):
        yield ScanResult(session, detect_findings(session, extra))


def outline(result: ScanResult) -> ScanResult:
    """The result with only what the reports use: every turn's place and role, the names of its
    calls, and the whole of the turns with findings. A long history's reports so keep a small
    skeleton of each conversation instead of all its text and arguments; a turn without calls
    becomes a shared skeleton (turns are values), so a million of them cost a few thousand objects."""
    flagged = {finding.turn for finding in result.findings}
    turns = result.session.turns
    shared = _SKELETONS.cover(turns[-1].position + 1 if turns else 0)
    limit = shared.size
    outlined = tuple([turn if turn.position in flagged
                      else Turn(turn.position, turn.role, "", None, _call_names(turn.tool_calls), (), turn.raw)
                      if turn.tool_calls
                      else shared[turn.role][turn.position] if 0 <= turn.position < limit
                      else Turn(turn.position, turn.role, "")
                      for turn in turns])
    return ScanResult(replace(result.session, turns=outlined), result.findings)


class _Skeletons(dict):
    """The shared skeleton turns: for each role, a list of them by position, for the first
    `_SHARED_POSITIONS` positions (a lookup by index is what keeps outlining cheap). Every list
    holds at least `size` turns; lists only grow, under a lock, so lookups below a `size` read
    once need none."""

    size = 0

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()

    def __missing__(self, role: str) -> list[Turn]:
        with self._lock:
            return self.setdefault(role, [Turn(position, role, "") for position in range(self.size)])

    def cover(self, size: int) -> _Skeletons:
        """The table, with every role's list grown to `size` positions (at most `_SHARED_POSITIONS`)."""
        size = min(size, _SHARED_POSITIONS)
        if size > self.size:
            with self._lock:
                for role, row in self.items():
                    row.extend(Turn(position, role, "") for position in range(len(row), size))
                self.size = max(self.size, size)
        return self


_SHARED_POSITIONS = 1 << 14  # per role; four roles hold as many skeletons as 65,536 positions
_SKELETONS = _Skeletons()


def _call_names(calls: tuple[ToolCall, ...]) -> tuple[ToolCall, ...]:
    return tuple(ToolCall(None, sys.intern(call.name), None, None) for call in calls)
