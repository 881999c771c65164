"""The benchmarks' files, small: the scan reports exactly the problems each generator plants. A
benchmark's ratio means something only while the scan still finds what the file holds (a faster
scan that misses findings is no faster scan), and the scripts are run by hand: this keeps their
files and the detectors in step. Each generator writes a few thousand records, as it writes its
100,000, in a temporary folder; the coding agents' files are their samples repeated
(`bench_agents.py`, `agent_files.py`), whose findings are the sample's times the copies, and those the joins of
copies add.
"""

from __future__ import annotations

import importlib
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from inspector.scan.scanner import scan_file

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
RECORDS = 3000
# each benchmark script whose `generate(path, count)` returns the problems it planted, and its file's name
GENERATORS = {
    "bench_scan": "bench.openai.json",
    "bench_claude_code": "bench.jsonl",
    "bench_codex": "rollout.jsonl",
    "bench_gemini_cli": "session.jsonl",
    "bench_inspect_ai": "log.json",
    "bench_langchain": "messages.json",
    "bench_litellm": "log.jsonl",
    "bench_sharegpt": "dataset.jsonl",
    "bench_sqlite": "history.db",
}
NOT_KINDS = {"lines", "messages"}  # counts some generators return beside the problems


def _benchmark(name: str, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The benchmark script `name`, imported as it runs (its own folder first on the path)."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    return importlib.import_module(name)


def _found(path: Path) -> Counter[str]:
    """The findings of a scan of `path`, by kind."""
    return Counter(finding.kind for result in scan_file(path) for finding in result.findings)


@pytest.mark.parametrize("script", sorted(GENERATORS))
def test_a_benchmark_file_is_reported_with_exactly_the_problems_planted_in_it(script, tmp_path, monkeypatch):
    path = tmp_path / GENERATORS[script]
    planted = _benchmark(script, monkeypatch).generate(path, RECORDS)
    expected = {kind: count for kind, count in planted.items() if kind not in NOT_KINDS and count}
    assert expected, "the generator planted nothing at this size"
    assert dict(_found(path)) == expected


def _agent_formats() -> list[str]:
    """The coding agents' formats `bench_agents.py` measures."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        return sorted(_benchmark("agent_files", monkeypatch).FORMATS)


@pytest.mark.parametrize("name", _agent_formats())
def test_a_coding_agents_benchmark_file_is_reported_with_its_samples_findings_times_the_copies(
    name, tmp_path, monkeypatch
):
    agents = _benchmark("agent_files", monkeypatch)
    sample = agents.SAMPLES / agents.FORMATS[name][0]
    path = tmp_path / f"bench.{sample.name.split('.', 1)[1]}"
    copies = agents.generate(name, path, RECORDS // 10)
    assert copies > 1
    assert dict(_found(path)) == agents.expected_findings(name, dict(_found(sample)), copies)
