"""`scan --output-format sarif`: the findings as a SARIF 2.1.0 log, for code-scanning tools (GitHub
uploads it with `upload-sarif`). One run of the tool `inspector`, a rule per finding kind found,
a result per finding at its file and line (`file_places`), with the session and the turn as its
logical location and a fingerprint that stays the same from one scan to the next; a file that
could not be read is an error notification of the run, which is then not successful."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from inspector import __version__
from inspector.model import Finding
from inspector.report.file_places import shown_path, turn_lines
from inspector.scan.summary import SessionSummary
from inspector.support.safe_text import one_line

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
LEVELS = {"error": "error", "warning": "warning", "info": "note"}


def build_sarif(summaries: Sequence[SessionSummary], errors: Sequence[str] = ()) -> dict[str, Any]:
    """The SARIF log of the scanned sessions (and of the files that could not be read)."""
    kinds = sorted({finding.kind for summary in summaries for finding in summary.findings})
    rules = {kind: index for index, kind in enumerate(kinds)}
    results = [
        _result(summary, finding, lines, rules)
        for summary in summaries
        for lines in (turn_lines(summary.path, [f.turn_id for f in summary.findings if f.turn_id]),)
        for finding in summary.findings
    ]
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "inspector",
                        "version": __version__,
                        "rules": [
                            {"id": kind, "name": kind, "shortDescription": {"text": f"inspector finding: {kind}"}}
                            for kind in kinds
                        ],
                    }
                },
                "invocations": [
                    {
                        "executionSuccessful": not errors,
                        "toolExecutionNotifications": [
                            {"level": "error", "message": {"text": one_line(error)}} for error in errors
                        ],
                    }
                ],
                "results": results,
            }
        ],
    }


def _result(summary: SessionSummary, finding: Finding, lines: dict[str, int], rules: dict[str, int]) -> dict[str, Any]:
    path, session = shown_path(summary.path), summary.session_id or ""
    turn = f"turn {finding.turn}"
    return {
        "ruleId": finding.kind,
        "ruleIndex": rules[finding.kind],
        "level": LEVELS[finding.severity],
        "message": {"text": one_line(f"{finding.message} (session {session or path}, {turn})")},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": _uri(summary.path, path)},
                    "region": {"startLine": lines.get(finding.turn_id or "", 1)},
                },
                "logicalLocations": [{"name": turn, "fullyQualifiedName": f"{session}/{turn}", "kind": "object"}],
            }
        ],
        "partialFingerprints": {"inspectorFinding/v1": _fingerprint(path, session, finding)},
    }


def _uri(location: object, shown: str) -> str:
    """The file as a URI reference: relative to the current folder when inside it, else `file://`."""
    if not isinstance(location, Path):
        return shown
    return Path(shown).resolve().as_uri() if Path(shown).is_absolute() else quote(shown)


def _fingerprint(path: str, session: str, finding: Finding) -> str:
    """The same finding in the same place gets the same print in every scan (its message and span
    included: two findings of one kind in one turn differ by them)."""
    where = finding.turn_id or str(finding.turn)
    parts = (path, session, where, finding.kind, finding.message, str(finding.span))
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()
