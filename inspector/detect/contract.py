"""The contract of a detector: the `Detector` each detector module of `inspector.detect` ends with
(`DETECTOR = Detector(KIND, SEVERITY, detect)`), listed in `DETECTORS` in the order they run.

A detector is:

- `kind`: the name of what it finds; every finding it yields has this kind, the name the reports,
  the app and `fix --accept` use.
- `severity`: the most severe of its findings (`error`, `warning` or `info`). Most carry it; a
  detector that grades them gives the ones it is less sure of, or only notes, a lower one.
- `detect(context) -> Iterable[Finding]`: the findings in one session, each with the `Fix` it
  proposes (or none), read through the `ScanContext`'s indexes (built once per scan). Any text a
  model wrote may be hostile: it runs in time linear in the session's text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from inspector.detect.context import ScanContext
from inspector.model import Finding, Severity

Detect = Callable[[ScanContext], Iterable[Finding]]


@dataclass(frozen=True, slots=True)
class Detector:
    """One detector: the `kind` of its findings, their highest `severity`, and how it `detect`s
    them (see the module's docstring for what each must do)."""

    kind: str
    severity: Severity
    detect: Detect
