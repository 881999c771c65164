"""Benchmark: `inspector scan --json` on large agent-framework histories (AG2, Haystack, AutoGen,
smolagents, DSPy) against decoding the file with `json.load`.

Run by hand from anywhere (pytest does not collect it):

    python tests/benchmarks/bench_frameworks.py [--format ag2] [--events 100000] [--runs 3] [--keep]

For each format (or the one named), a child process writes a deterministic file of about N
records by repeating the records of the sample the real library wrote
(`sessions/`), each copy's call ids made unique (`call_mock_` ->
`call_<copy>_`): one copy in `WHOLE_EVERY` is the whole sample with its planted problems, the
others only its clean exchange (a user turn, the good call, its result and the final reply), so
about 3% of the records hold a problem, as in the other benchmarks. Then, several times each and
each in its own process, a baseline that only `json.load`s the file and `python -m inspector
scan --json FILE` run interleaved; it prints the best wall time and the peak memory (the child's
own `ru_maxrss`) of each, their ratios against the targets (time at most 3.0x, memory at most
2.5x the baseline) and the findings reported against the sample's findings times the whole samples.
It exits 0 whatever the numbers (a report, not a test) unless a child crashes.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_runner import ROOT, measure

TIME_TARGET, MEMORY_TARGET, RUNS = 3.0, 2.5, 3
SAMPLES = ROOT / "sessions"
FORMATS = {
    "ag2": "ag2.chat_history.json",
    "haystack": "haystack.messages.json",
    "autogen": "autogen.state.json",
    "smolagents": "smolagents.steps.json",
    "dspy": "dspy.history.json",
}
# The records of each sample that make a clean exchange (0-based; see sessions/generate/README.md).
CLEAN = {
    "ag2": [0, 7, 8, 9],
    "haystack": [1, 8, 9, 10],
    "autogen": [0, 7, 8, 9],
    "smolagents": [0, 8, 9],
    "dspy": [0, 4, 5, 6],
}
WHOLE_EVERY = 20
BASELINE = "import json, sys\nvalue = json.load(open(sys.argv[1], encoding='utf-8'))"


def records_of(value):
    """The sample's record list (the state's LLM context for AutoGen)."""
    return value["llm_context"]["messages"] if isinstance(value, dict) else value


def generate(name: str, path: Path, count: int) -> int:
    """Write about `count` records of format `name` to `path`; return how many whole samples it holds."""
    sample = json.loads((SAMPLES / FORMATS[name]).read_text(encoding="utf-8"))
    whole = records_of(sample)
    clean = [whole[i] for i in CLEAN[name]]
    records: list = []
    copy = 0
    while len(records) < count:
        part = whole if copy % WHOLE_EVERY == 0 else clean
        records += json.loads(json.dumps(part, ensure_ascii=False).replace("call_mock_", f"call_{copy}_"))
        copy += 1
    copies = (copy + WHOLE_EVERY - 1) // WHOLE_EVERY
    value = {**sample, "llm_context": {"messages": records}} if isinstance(sample, dict) else records
    path.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
    return copies


def sample_findings(name: str) -> dict[str, int]:
    """The findings of a scan of the sample itself, by kind."""
    report = subprocess.run(
        [sys.executable, "-m", "inspector", "scan", "--json", "--no-cache", str(SAMPLES / FORMATS[name])],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return json.loads(report.stdout)["summary"]["by_kind"]


def bench(name: str, events: int, runs: int, keep: bool) -> None:
    """Generate, measure and print one format's figures."""
    path = Path(tempfile.mkdtemp(prefix="inspector-bench-")) / f"bench.{name}.json"
    try:
        made = subprocess.run(
            [sys.executable, __file__, "--format", name, "--events", str(events), "--generate-only", str(path)],
            capture_output=True,
            text=True,
            check=True,
        )
        copies = int(made.stdout)
        print(f"\n{name}: {events:,} records, {copies:,} whole samples among them, {path.stat().st_size / 1e6:.1f} MB")
        baseline = [sys.executable, "-c", BASELINE, str(path)]
        scan = [sys.executable, "-m", "inspector", "scan", "--json", "--no-cache", str(path)]
        measured = {"json.load": [], "scan --json": []}
        for _ in range(runs):  # interleaved, so drift in the machine's load hits both alike
            measured["json.load"].append(measure(baseline, (0,)))
            measured["scan --json"].append(measure(scan, (0, 1)))
        best = {label: (min(t for t, _, _ in m), max(mb for _, _, mb in m)) for label, m in measured.items()}
        for label, (seconds, megabytes) in best.items():
            print(f"  {label:12}{seconds:>8.2f} s{megabytes:>8.0f} MB   (best of {runs})")
        for label, index, target in (("time", 0, TIME_TARGET), ("memory", 1, MEMORY_TARGET)):
            ratio = best["scan --json"][index] / best["json.load"][index]
            print(
                f"  scan {label + ':':8}{ratio:.2f}x json.load (target <= {target}x) "
                f"{'ok' if ratio <= target else 'OVER TARGET'}"
            )
        report = subprocess.run(scan, capture_output=True, text=True, cwd=ROOT)
        found = json.loads(report.stdout)["summary"]["by_kind"]
        for kind, per_copy in sorted(sample_findings(name).items()):
            expected = per_copy * copies
            print(
                f"  {kind + ':':21}{found.get(kind, 0):,} reported, {expected:,} planted"
                f"{'' if found.get(kind, 0) == expected else '  MISMATCH'}"
            )
    finally:
        if keep:
            print(f"  kept {path}")
        else:
            shutil.rmtree(path.parent, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--format", choices=sorted(FORMATS), help="only this format (default: all five)")
    parser.add_argument("--events", type=int, default=100_000, help="records in each generated file")
    parser.add_argument("--keep", action="store_true", help="keep the generated files and print where")
    parser.add_argument("--runs", type=int, default=RUNS, help="interleaved runs of each command (best is compared)")
    parser.add_argument("--generate-only", metavar="PATH", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.generate_only:  # the child that writes the file
        print(generate(options.format, Path(options.generate_only), options.events))
        return
    for name in [options.format] if options.format else list(FORMATS):
        bench(name, options.events, options.runs, options.keep)


if __name__ == "__main__":
    main()
