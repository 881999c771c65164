"""Where the time of `inspector scan --json FILE` goes: CPU seconds of each stage, in one process.

Run by hand (pytest does not collect it), or through `bench_scan.py --stages`:

    python tests/benchmarks/scan_stages.py FILE [FILE ...] [--repeat 3]

It runs the stages the command runs, in its order (imports; reading and decoding the file; detecting
its format; building the turns; setting odd records aside; each detector; the summary of each session the command keeps;
the report with its rates; encoding the report) and prints the CPU time of each (best of
`--repeat` runs after the imports) and their total. Given several files (the sessions of a home
folder: `find ~/.claude/projects -name '*.jsonl'`), each stage's row is its time over them all, one
report built of them all, as `scan` with no path builds it. A detector's row includes the shared indexes
it was the first to ask for. CPU time, not wall time: other work on the machine changes it less.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", type=Path, nargs="+", help="session files")
    parser.add_argument("--repeat", type=int, default=3, help="runs of the stages after the imports (best is shown)")
    options = parser.parse_args()
    sys.path.insert(0, str(ROOT))  # measure the tree this script is in, as `bench_scan.py` does
    start = time.process_time()
    import inspector.cli.main  # noqa: F401  (everything the command imports)

    imports = time.process_time() - start
    runs = [_stages(options.files) for _ in range(options.repeat)]
    best = {name: min(run[name] for run in runs) for name in runs[0]}
    print(f"{'stage':28}{'CPU s':>8}")
    print(f"{'imports':28}{imports:>8.3f}")
    for name, seconds in best.items():
        print(f"{name:28}{seconds:>8.3f}")
    print(f"{'total':28}{imports + sum(v for k, v in best.items() if not k.startswith('  ')):>8.3f}")


def _stages(paths: list[Path]) -> dict[str, float]:
    """One scan of `paths`, stage by stage, as `inspector scan --json` runs it."""
    from inspector import detect as detection
    from inspector.detect import secret_gate
    from inspector.report.json_report import build_report, encode_json
    from inspector.scan.scanner import ScanResult
    from inspector.scan.summary import summarise
    from inspector.sources.files.document import read_document
    from inspector.sources.files.inspect_eval import is_eval_archive, read_eval
    from inspector.sources.formats import format_of
    from inspector.sources.odd_records import without_odd_turns
    from inspector.support.gc_pause import collector_paused

    spent: dict[str, float] = {detector.kind: 0.0 for detector in detection.DETECTORS}
    originals = detection._detectors  # what `detect_findings` asks for the detectors
    timed = tuple(replace(detector, detect=_timed(detector.detect, detector.kind, spent)) for detector in originals())
    detection._detectors = lambda: timed
    secret_gate._KNOWN = secret_gate._Known()  # each run learns what is plain as a new process does
    stages = ("read and decode", "detect the format", "build turns", "set odd records aside", "detect")
    times = dict.fromkeys(stages, 0.0)
    kept = []
    try:
        clock = _Clock()
        with collector_paused():  # as the command scans
            for path in paths:
                document = read_eval(path) if is_eval_archive(path) else read_document(path)
                times["read and decode"] += clock.lap()
                adapter = format_of(document)
                times["detect the format"] += clock.lap()
                sessions = adapter.read(document)
                times["build turns"] += clock.lap()
                sessions = [without_odd_turns(session) for session in sessions]
                times["set odd records aside"] += clock.lap()
                results = [ScanResult(session, detection.detect_findings(session)) for session in sessions]
                times["detect"] += clock.lap()
                kept += [summarise(result) for result in results]  # what the command keeps for the report
                times["summarise"] = times.get("summarise", 0.0) + clock.lap()
            times.update({f"  {kind}": seconds for kind, seconds in spent.items()})
        report = build_report(kept, [])
        times["report and rates"] = clock.lap()
        encode_json(report)
        times["encode report"] = clock.lap()
        return times
    finally:
        detection._detectors = originals


class _Clock:
    """CPU seconds since the last lap."""

    def __init__(self) -> None:
        self.last = time.process_time()

    def lap(self) -> float:
        now = time.process_time()
        elapsed, self.last = now - self.last, now
        return elapsed


def _timed(detect: Callable, kind: str, spent: dict[str, float]) -> Callable:
    """`detect` with the CPU time spent inside it added to `spent[kind]`."""

    def wrapper(context) -> Iterator:
        findings = iter(detect(context))
        while True:
            start = time.process_time()
            try:
                finding = next(findings)
            except StopIteration:
                spent[kind] += time.process_time() - start
                return
            spent[kind] += time.process_time() - start
            yield finding

    return wrapper


if __name__ == "__main__":
    sys.exit(main())
