"""The detectors, and running them over a session.

A detector is a module ending with its `DETECTOR` (a `Detector`: the kind of finding it reports,
how severe, and `detect(context)` yielding them). Adding one means adding a module and listing its
`DETECTOR` in `DETECTORS`.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING

from inspector.catalogue import build_catalogue
from inspector.detect.context import ScanContext
from inspector.detect.contract import Detector

if TYPE_CHECKING:
    from inspector.model import Finding, Session, Severity, ToolSpec

# Set when first used (`__getattr__`): a module of this package (one detector) imports no other detector.
DETECTORS: tuple[Detector, ...]


def __getattr__(name: str) -> object:
    """`DETECTORS`, every detector imported on first use."""
    if name != "DETECTORS":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = globals()["DETECTORS"] = _detectors()
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), "DETECTORS"})


@cache
def _detectors() -> tuple[Detector, ...]:
    """Every detector, in the order they run (imported on the first call)."""
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
        relayed_fake_result,
        repeated_call,
        result_prefix,
        secret,
        tool_error,
        tool_markup,
        unknown_parameter,
        unknown_tool,
        wrong_type,
    )

    detectors = (
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
        relayed_fake_result.DETECTOR,
        narrated_action.DETECTOR,
        secret.DETECTOR,
    )
    return detectors


@cache
def _schema_severities() -> dict[str, Severity]:
    """The severity of each schema kind, for the calls recovered from text that are checked in a second pass."""
    from inspector.detect import invalid_argument, unknown_parameter, unknown_tool, wrong_type

    return {
        d.kind: d.severity
        for d in (unknown_tool.DETECTOR, invalid_argument.DETECTOR, unknown_parameter.DETECTOR, wrong_type.DETECTOR)
    }


def kinds() -> list[str]:
    """Every finding kind the detectors can report."""
    return [detector.kind for detector in _detectors()]


def detect_findings(session: Session, extra_tools: Iterable[ToolSpec] = ()) -> list[Finding]:
    """All findings in `session`, ordered by turn, with `extra_tools` added to its catalogue."""
    from inspector.detect import schema_check

    context = ScanContext(session, build_catalogue(session, extra_tools))
    findings = [finding for detector in _detectors() for finding in detector.detect(context)]
    findings.extend(
        schema_check.recovered_findings(context, findings, _schema_severities())
    )  # calls recovered from text
    findings.sort(key=lambda finding: finding.turn)
    return findings
