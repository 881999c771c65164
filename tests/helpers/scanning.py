"""What a scan of a session file finds, in the shapes the tests compare."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.model import Finding
from inspector.scan.scanner import scan_file


def findings_of(path: Path, *kinds: str) -> list[Finding]:
    """The findings of the one session in `path`, only those of `kinds` when any are named."""
    (result,) = scan_file(path)
    return [finding for finding in result.findings if not kinds or finding.kind in kinds]


def finding_triples(path: Path, tools: Iterable[dict] = ()) -> list[tuple]:
    """(turn, kind, tool) of every finding a scan of `path` reports (with the extra `tools`), in order."""
    return [(f.turn, f.kind, f.tool) for result in scan_file(path, extra_tools=tools) for f in result.findings]


def reported_findings(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, list[tuple]]:
    """`inspector scan --json ARGS` (exit 0 or 1): (turn, kind, tool) of each session's findings, by
    session id."""
    assert main(["scan", "--json", *args]) in (0, 1)
    report = json.loads(capsys.readouterr().out)
    return {s["session_id"]: [(f["turn"], f["kind"], f["tool"]) for f in s["findings"]] for s in report["sessions"]}


def kinds_of(path: Path) -> list[str]:
    """The kinds of the findings of the one session in `path`, in order."""
    return [finding.kind for finding in findings_of(path)]


def fix_exit_code(path: Path, accepted: Iterable[str] | None = None, extra_tools: Iterable[dict] = ()) -> int:
    """The code `inspector fix` exits with on `path` accepting `accepted` (None: all): 1 when a
    finding is left in what it writes (of a kind not accepted, or with no automatic fix), else 0."""
    left = [
        finding
        for result in scan_file(path, extra_tools=extra_tools)
        for finding in result.findings
        if finding.fix is None or (accepted is not None and finding.kind not in accepted)
    ]
    return 1 if left else 0
