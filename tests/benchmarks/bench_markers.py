"""Benchmark: the detectors on a large session against `rg` searching it for the markers of a leaked call.

Run by hand from anywhere (pytest does not collect it; it needs `rg`, ripgrep, on the PATH):

    python tests/benchmarks/bench_markers.py [--runs 3] [--keep]

It writes the scan benchmark's deterministic OpenAI session (`bench_scan.py`, 200,000 messages,
about 78 MB) and the Claude Code benchmark's (`bench_claude_code.py`, 100,000 lines, about 94 MB).
On each, several times and interleaved, each in its own process:

- `rg -P --count-matches` of the markers `tool-markup` looks for first (every model family's
  call-opening tokens and tags, the fences and lists a call may be written in: its prefilter's
  pattern), over the whole file: the floor of a search for where a detector may have work;
- the detectors alone, in one process (`scan_stages.py`'s stages: the CPU seconds of the detect
  stage, the file read and its turns built before it is timed);
- `python -m inspector scan --json --no-cache FILE`, whole.

It prints the best of each (wall seconds for `rg` and the scan, CPU seconds for the detectors),
the detectors' and the scan's ratio to `rg`, and how many replies the first passes of tool-markup
and narrated-action let through to their full check, and how many turns the secret search's. The detectors do more than find markers (they parse
what they find, check calls against their tools, weigh claims, and look for secrets), so the ratio
says how close their cheap first passes keep them to a search of the file: each detector runs its
full check only where its first pass (one or a few searches of a reply, or of many at once) says
that it may find something. It exits 0 whatever the numbers, unless a child crashes.

Figures on a 2-core machine (load under 1), best of 3:

    file                     rg       detectors   scan     detectors / rg   scan / rg
    OpenAI, 200k messages    0.27 s   2.40 s      3.50 s   8.8x             12.8x
    Claude Code, 100k lines  0.13 s   0.74 s      1.90 s   5.5x             14.3x

The first passes let through, of the OpenAI session's 96,735 replies, 762 to tool-markup (0.8%)
and 671 to narrated-action (0.7%), and none of its 200,000 turns to the secret search; of the
Claude Code session's 22,614 replies, 168 (0.7%) and 136 (0.6%), and none of its 46,671 turns.

On the OpenAI session the detectors' time is mostly what its planted problems cost once found
(4,019 fake results, each parsed and paired with the calls it may echo: result-prefix 0.46 s;
claimed-success 0.32 s) and the secret search's first pass over every turn's texts and fields
(0.96 s), which looks for far more than a call's markers; on both, no detector parses a reply its
first pass ruled out.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_runner import ROOT, measure, scan_command

FILES = (  # what is measured: its name, its generator, the generator's size option and size, the file's name
    ("OpenAI, 200k messages", "bench_scan.py", "--messages", 200_000, "bench.openai.json"),
    ("Claude Code, 100k lines", "bench_claude_code.py", "--events", 100_000, "bench.claude-code.jsonl"),
)
# The child that runs the stages of a scan and prints the detect stage's CPU seconds, and how many
# replies (turns, for the secret search) three first passes let through to their detector's check.
DETECT_ONLY = """
import json, sys
sys.path.insert(0, sys.argv[2])
from pathlib import Path
import scan_stages
import inspector.cli.main
from inspector.detect.announcement import may_end_announcing
from inspector.detect.secret_gate import turns_to_search
from inspector.detect.tool_markup import _may_hold_markup
from inspector.sources.files.document import read_document
from inspector.sources.formats import format_of

path = Path(sys.argv[1])
seconds = scan_stages._stages([path])["detect"]
document = read_document(path)
turns = [turn for session in format_of(document).read(document) for turn in session.turns]
replies = [turn.text for turn in turns if turn.role == "assistant"]
passed = {
    "tool-markup": (sum(map(_may_hold_markup, replies)), len(replies)),
    "narrated-action": (sum(map(may_end_announcing, replies)), len(replies)),
    "secret": (len(list(turns_to_search(turns))), len(turns)),
}
print(json.dumps({"detect": seconds, "passed": passed}))
"""


def markers_pattern() -> str:
    """`tool-markup`'s prefilter pattern: the markers a leaked call starts with (PCRE syntax)."""
    sys.path.insert(0, str(ROOT))
    from inspector.detect.tool_markup import _MARKERS

    return _MARKERS.pattern


def generate(script: str, option: str, size: int, path: Path) -> None:
    """Write a benchmark's session with its generator (a child process, which exits on failure)."""
    command = [sys.executable, str(HERE / script), option, str(size), "--generate-only", str(path)]
    measure(command, (0,))


def detectors(path: Path) -> dict:
    """The CPU seconds of the detectors over `path` (`detect`) and what three first passes let
    through (`passed`: detector -> [let through, looked at]), from a child process."""
    with tempfile.TemporaryFile() as output:
        measure([sys.executable, "-c", DETECT_ONLY, str(path), str(HERE)], (0,), output)
        output.seek(0)
        return json.loads(output.read())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="interleaved runs of each command (best is shown)")
    parser.add_argument("--keep", action="store_true", help="keep the generated files and print where")
    options = parser.parse_args()
    rg = shutil.which("rg")
    if rg is None:
        sys.exit("bench_markers.py: rg (ripgrep) is not on the PATH")
    folder = Path(tempfile.mkdtemp(prefix="inspector-bench-markers-"))
    try:
        pattern = folder / "markers.txt"
        pattern.write_text(markers_pattern(), encoding="utf-8")
        print(f"{'file':26}{'rg':>8}{'detectors':>11}{'scan':>8}{'detectors / rg':>16}{'scan / rg':>11}")
        for label, script, option, size, name in FILES:
            path = folder / name
            generate(script, option, size, path)
            search, detect, scan = [], [], []
            passed: dict[str, list[int]] = {}
            for _ in range(options.runs + 1):  # the first round only fills the caches, and is not counted
                search.append(measure([rg, "-P", "--count-matches", "-f", str(pattern), str(path)], (0, 1))[0])
                measured = detectors(path)
                detect.append(measured["detect"])
                passed = measured["passed"]
                scan.append(measure(scan_command(path), (0, 1))[0])
            best_rg, best_detectors, best_scan = min(search[1:]), min(detect[1:]), min(scan[1:])
            print(
                f"{label:26}{best_rg:>7.2f}s{best_detectors:>10.2f}s{best_scan:>7.2f}s"
                f"{best_detectors / best_rg:>15.1f}x{best_scan / best_rg:>10.1f}x",
                flush=True,
            )
            for kind, (through, looked_at) in passed.items():
                share = through / looked_at if looked_at else 0
                print(f"  {kind}'s first pass lets {through:,} of {looked_at:,} through ({share:.1%})", flush=True)
    finally:
        if options.keep:
            print(f"kept {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
