"""Detector `unknown-parameter`: an argument name the schema does not have. The fix renames it to
the one missing required parameter when exactly one unknown value fits its type, or unwraps a single
arguments/input/parameters/params wrapper whose inner object validates.

Checked only for tools with a real schema, by `schema_check`; every fix is re-validated.
"""

from __future__ import annotations

from collections.abc import Iterator

from inspector.detect import schema_check, schema_kinds
from inspector.detect.context import ScanContext
from inspector.detect.contract import Detector
from inspector.model import ERROR, Finding, Severity

KIND = schema_kinds.UNKNOWN_PARAMETER
SEVERITY: Severity = ERROR


def detect(context: ScanContext) -> Iterator[Finding]:
    """Findings for every structured call (with parsed arguments) that has this problem."""
    return schema_check.findings_of_kind(context, KIND, SEVERITY)


DETECTOR = Detector(KIND, SEVERITY, detect)
