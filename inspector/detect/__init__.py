"""The detectors, and running them over a session.

A detector is a module ending with its `DETECTOR` (a `Detector`: the kind of finding it reports,
how severe, and `detect(context)` yielding them). Adding one means adding a module and listing its
`DETECTOR` in `DETECTORS`.
"""

from __future__ import annotations

from collections.abc import Iterable

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
    secret,
    tool_error,
    tool_markup,
    unknown_parameter,
    unknown_tool,
    wrong_type,
)
from inspector.detect.context import ScanContext
from inspector.detect.contract import Detector
from inspector.model import Finding, Session, Severity, ToolSpec

DETECTORS: tuple[Detector, ...] = (
    result_prefix.DETECTOR,
    malformed_arguments.DETECTOR,
    orphan_call.DETECTOR,
    orphan_result.DETECTOR,
    tool_error.DETECTOR,
    claimed_execution.DETECTOR,
    tool_markup.DETECTOR,
    unknown_tool.DETECTOR,
    invalid_argument.DETECTOR,
    unknown_parameter.DETECTOR,
    wrong_type.DETECTOR,
    claimed_success.DETECTOR,
    mismatched_result.DETECTOR,
    repeated_call.DETECTOR,
    fake_result_block.DETECTOR,
    narrated_action.DETECTOR,
    secret.DETECTOR,
)
# The severity of each schema kind, for the calls recovered from text that are checked in a second pass.
_SCHEMA_SEVERITIES: dict[str, Severity] = {
    d.kind: d.severity
    for d in (unknown_tool.DETECTOR, invalid_argument.DETECTOR, unknown_parameter.DETECTOR, wrong_type.DETECTOR)
}


def kinds() -> list[str]:
    """Every finding kind the detectors can report."""
    return [detector.kind for detector in DETECTORS]


def detect_findings(session: Session, extra_tools: Iterable[ToolSpec] = ()) -> list[Finding]:
    """All findings in `session`, ordered by turn, with `extra_tools` added to its catalogue."""
    context = ScanContext(session, build_catalogue(session, extra_tools))
    findings = [finding for detector in DETECTORS for finding in detector.detect(context)]
    findings.extend(schema_check.recovered_findings(context, findings, _SCHEMA_SEVERITIES))  # calls recovered from text
    findings.sort(key=lambda finding: finding.turn)
    return findings
