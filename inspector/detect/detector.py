"""What a detector is: the kind of finding it reports, how severe, and the function that finds them.

Each detector module ends with its `DETECTOR`, and `DETECTORS` in `inspector/detect/__init__.py`
lists them in the order they run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from inspector.detect.context import ScanContext
from inspector.model import Finding, Severity


@dataclass(frozen=True, slots=True)
class Detector:
    """One detector.

    `kind` names its findings (every finding it yields has this kind: the name the reports, the
    app and `fix --accept` use). `severity` is the most severe of its findings: most carry it, and a
    detector that grades them gives the ones it is less sure of, or only notes, a lower one.
    `detect(context)` yields the findings in one session, reading it through the `ScanContext`'s
    indexes; it runs in time linear in the session's text, as any text a model wrote may be hostile.
    """

    kind: str
    severity: Severity
    detect: Callable[[ScanContext], Iterable[Finding]]
