"""The scan of every committed sample, and of each benchmark's file written small, reports what the
record of it holds (`tests.helpers.sample_findings`): the same sessions, findings, repairs,
problems and refused files. A change meant to change none of them (a faster look, code moved) is
held to it; one that means to writes the record again."""

from __future__ import annotations

import pytest

from tests.helpers.sample_findings import BENCHMARKS, RECORD, generated, recorded, reported, sample_names
from tests.helpers.samples import ROOT

RECORDED = recorded()


def test_the_record_names_every_sample():
    assert sorted(RECORDED) == sorted([*sample_names(), *BENCHMARKS]), (
        f"write {RECORD.name} again: python -m tests.helpers.sample_findings"
    )


@pytest.mark.parametrize("name", sample_names())
def test_the_scan_of_a_sample_reports_what_its_record_holds(name, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert reported(name) == RECORDED[name], (
        f"the scan of {name} changed; if the change means it: python -m tests.helpers.sample_findings"
    )


@pytest.mark.parametrize("name", BENCHMARKS)
def test_the_scan_of_a_benchmark_file_reports_what_its_record_holds(name, tmp_path, monkeypatch):
    """Each benchmark's file, written small by its generator (the planted problems of every kind it
    plants), scanned as the record of it says."""
    generated(name, tmp_path)
    monkeypatch.chdir(tmp_path)
    assert reported(name) == RECORDED[name], (
        f"the scan of {name} changed; if the change means it: python -m tests.helpers.sample_findings"
    )
