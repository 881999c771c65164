"""Detector `invalid-argument`: a value that breaks the schema: enum, const, a missing required
parameter, bounds, pattern, additional properties in a nested object, a value that fits no anyOf /
oneOf form. The fix normalises an enum value only when exactly one allowed value matches ignoring
case and punctuation (also inside anyOf/oneOf, when only one form takes it).

Checked only for tools with a real schema, by `schema_check`; every fix is re-validated.
"""

from __future__ import annotations

from collections.abc import Iterator

from inspector.detect import schema_check, schema_kinds
from inspector.detect.context import ScanContext
from inspector.detect.contract import Detector
from inspector.model import ERROR, Finding, Severity

KIND = schema_kinds.INVALID_ARGUMENT
SEVERITY: Severity = ERROR


def detect(context: ScanContext) -> Iterator[Finding]:
    """Findings for every structured call (with parsed arguments) that has this problem."""
    return schema_check.findings_of_kind(context, KIND, SEVERITY)


DETECTOR = Detector(KIND, SEVERITY, detect)
