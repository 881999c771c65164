"""Detector `unknown-tool`: a call of a tool the catalogue does not define (a phantom tool). The
message lists the closest defined tools (`tool_ranking`: name similarity plus argument fit). The
fix renames the call, keeping its id and arguments, only to a clearly best tool: it leads the
runner-up by at least 0.5, its name is at least half alike, and the arguments validate against it
unchanged; a call without an id (answered by name) and a call recovered from text get no fix.

Checked only for tools with a real schema, by `schema_check`; every fix is re-validated.
"""

from __future__ import annotations

from collections.abc import Iterator

from inspector.detect import schema_check, schema_kinds
from inspector.detect.context import ScanContext
from inspector.detect.contract import Detector
from inspector.model import ERROR, Finding, Severity

KIND = schema_kinds.UNKNOWN_TOOL
SEVERITY: Severity = ERROR


def detect(context: ScanContext) -> Iterator[Finding]:
    """Findings for every structured call (with parsed arguments) that has this problem."""
    return schema_check.findings_of_kind(context, KIND, SEVERITY)


DETECTOR = Detector(KIND, SEVERITY, detect)
