"""The detectors, and running them over a session.

A detector is a module with `KIND` (the finding kind it reports) and `detect(context)` yielding
`Finding`s. Adding one means adding a module and listing it in `DETECTORS`.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType

from inspector.catalogue import build_catalogue
from inspector.detect import (
    claimed_execution,
    claimed_success,
    fake_result_block,
    invalid_argument,
    malformed_arguments,
    mismatched_result,
    narrated_action,
    orphan_call,
    orphan_result,
    repeated_call,
    result_prefix,
    schema_check,
    tool_error,
    tool_markup,
    unknown_parameter,
    unknown_tool,
    wrong_type,
)
from inspector.detect.context import ScanContext
from inspector.model import Finding, Session, ToolSpec

DETECTORS: tuple[ModuleType, ...] = (
    result_prefix,
    malformed_arguments,
    orphan_call,
    orphan_result,
    tool_error,
    claimed_execution,
    tool_markup,
    unknown_tool,
    invalid_argument,
    unknown_parameter,
    wrong_type,
    claimed_success,
    mismatched_result,
    repeated_call,
    fake_result_block,
    narrated_action,
)
_SCHEMA_KINDS = {d.KIND: d.SEVERITY for d in (unknown_tool, invalid_argument, unknown_parameter, wrong_type)}


def kinds() -> list[str]:
    """Every finding kind the detectors can report."""
    return [detector.KIND for detector in DETECTORS]


def detect_findings(session: Session, extra_tools: Iterable[ToolSpec] = ()) -> list[Finding]:
    """All findings in `session`, ordered by turn, with `extra_tools` added to its catalogue."""
    context = ScanContext(session, build_catalogue(session, extra_tools))
    findings = [finding for detector in DETECTORS for finding in detector.detect(context)]
    findings.extend(schema_check.recovered_findings(context, findings, _SCHEMA_KINDS))  # calls recovered from text
    findings.sort(key=lambda finding: finding.turn)
    return findings
