"""The detector contract: every module of `inspector/detect` with a `DETECTOR` is listed in
`DETECTORS`, once, each kind is its own; and over every bundled sample and every file the real
tools wrote (all but the clean sample hold planted problems), a detector's findings are of its
kind and never more severe than its severity."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import inspector.detect
from inspector.catalogue import build_catalogue
from inspector.detect import DETECTORS, kinds
from inspector.detect.context import ScanContext
from inspector.detect.contract import Detector
from inspector.model import SEVERITIES
from inspector.sources import load_sessions
from tests.helpers.samples import SESSIONS, TOOL_SAMPLES

WRITTEN_BY_THE_TOOLS = TOOL_SAMPLES
FILES = sorted(path for folder in (SESSIONS, WRITTEN_BY_THE_TOOLS) for path in folder.iterdir() if path.is_file())


def test_every_detector_module_is_registered_once_with_a_kind_of_its_own():
    modules = [
        importlib.import_module(f"inspector.detect.{info.name}")
        for info in pkgutil.iter_modules(inspector.detect.__path__)
    ]
    declared = [module.DETECTOR for module in modules if hasattr(module, "DETECTOR")]
    assert len(declared) == len(DETECTORS) == len(set(DETECTORS))
    assert set(declared) == set(DETECTORS)
    assert all(isinstance(detector, Detector) and detector.severity in SEVERITIES for detector in DETECTORS)
    assert len(set(kinds())) == len(kinds())


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_a_detector_reports_its_own_kind_at_its_severity_or_lower(path):
    sessions = load_sessions(path)
    reported = 0
    for session in sessions:
        context = ScanContext(session, build_catalogue(session))
        for detector in DETECTORS:
            for finding in detector.detect(context):
                assert finding.kind == detector.kind
                assert SEVERITIES.index(finding.severity) >= SEVERITIES.index(detector.severity), finding
                reported += 1
    assert reported or path.name.startswith("clean.")  # every other file holds planted problems
