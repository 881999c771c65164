"""Benchmark: recall, exact recovery and false positives of `tool-markup` on the held-out corpus.

Run by hand from anywhere (pytest does not collect it):

    python tests/benchmarks/bench_markup.py [--verbose]

For each leak of `markup_heldout.LEAKS` it writes an OpenAI Chat Completions session (a user
question, then the reply, with the corpus's tools) to a temporary directory and scans it: a leak is
found when the scan reports a `tool-markup` finding, and recovered exactly when the fixes' calls are
the expected ones (names and arguments, in order). Each clean reply of `CLEAN` must give no finding.
It prints the three figures (and with `--verbose` each miss); it exits 0 whatever they are.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from markup_heldout import CLEAN, LEAKS, TOOLS

from inspector.scan.scanner import scan_file


def _markup_findings(folder: Path, number: int, reply: str) -> list[Any]:
    """The `tool-markup` findings of a session of a question then `reply`."""
    path = folder / f"session_{number}.json"
    messages = [{"role": "user", "content": "Please help."}, {"role": "assistant", "content": reply}]
    path.write_text(json.dumps({"messages": messages, "tools": TOOLS}))
    (result,) = scan_file(path)
    return [finding for finding in result.findings if finding.kind == "tool-markup"]


def main() -> None:
    """Scan the corpus and print recall, exact recovery and false positives."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--verbose", action="store_true")
    verbose = parser.parse_args().verbose
    found = exact = noisy = 0
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        for number, (source, reply, expected) in enumerate(LEAKS):
            findings = _markup_findings(folder, number, reply)
            calls = [(c.name, c.arguments) for f in findings if f.fix for c in f.fix.add_calls]
            found += bool(findings)
            exact += calls == expected
            if verbose and calls != expected:
                print(f"MISS {source}: {reply[:70]!r}\n  got {calls}\n  want {expected}")
        for number, (source, reply) in enumerate(CLEAN, len(LEAKS)):
            findings = _markup_findings(folder, number, reply)
            noisy += bool(findings)
            if verbose and findings:
                print(f"FALSE POSITIVE {source}: {reply[:70]!r}")
    print(f"leaks found:      {found}/{len(LEAKS)} = {found / len(LEAKS):.3f}")
    print(f"exact recovery:   {exact}/{len(LEAKS)} = {exact / len(LEAKS):.3f}")
    print(f"false positives:  {noisy}/{len(CLEAN)}")


if __name__ == "__main__":
    main()
