"""Detector `wrong-type`: a value of the wrong JSON type (also one no anyOf / oneOf form or nullable
`type` list allows). The fix converts only without loss ("42" -> 42, "true" -> true, number ->
string, value -> [value], a JSON string holding the expected object or array), into the one form
that takes the result; when two forms take different results, no fix. It lists each conversion.

Checked only for tools with a real schema, by `schema_check`; every fix is re-validated.
"""

from __future__ import annotations

from collections.abc import Iterator

from inspector.detect import schema_check, schema_kinds
from inspector.detect.context import ScanContext
from inspector.detect.contract import Detector
from inspector.model import WARNING, Finding, Severity

KIND = schema_kinds.WRONG_TYPE
SEVERITY: Severity = WARNING


def detect(context: ScanContext) -> Iterator[Finding]:
    """Findings for every structured call (with parsed arguments) that has this problem."""
    return schema_check.findings_of_kind(context, KIND, SEVERITY)


DETECTOR = Detector(KIND, SEVERITY, detect)
