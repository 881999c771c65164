"""The benchmark scripts (run by hand, never collected) still import: a name moved between them
once broke four of them unnoticed. One child process imports them all, as each is run: with its
own folder first on the path, and without running any (each runs only as `__main__`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def test_every_benchmark_script_imports():
    names = sorted(path.stem for path in BENCHMARKS.glob("*.py"))
    assert "bench_scan" in names and "scan_stages" in names
    program = f"import sys; sys.path.insert(0, {str(BENCHMARKS)!r})\nfor name in {names!r}:\n    __import__(name)\n"
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
