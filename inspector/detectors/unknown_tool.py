"""Detector `unknown-tool`: a call of a tool the catalogue does not define (a phantom tool). The
message lists the closest defined tools; no automatic fix yet (a rename needs a new Fix field):
rename by hand.

Checked only for tools with a real schema, by `schema_check`; every fix is re-validated.
"""

from __future__ import annotations

from typing import Iterator

from inspector.detectors import schema_check
from inspector.detectors.context import ScanContext
from inspector.model import ERROR, Finding

KIND = schema_check.UNKNOWN_TOOL
SEVERITY = ERROR


def detect(context: ScanContext) -> Iterator[Finding]:
    """Findings for every structured call (with parsed arguments) that has this problem."""
    return schema_check.findings_of_kind(context, KIND, SEVERITY)
