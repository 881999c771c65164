"""Benchmark: recall and precision of `claimed-success` on the held-out corpus.

Run by hand from anywhere (pytest does not collect it):

    python tests/benchmarks/bench_claimed.py [--verbose]

For each case of the held-out corpus (`claimed_heldout.py` says what it holds: the failures claimed
done of `FAILED_COMMANDS` and `FAILED_SERVICES`, and the `CLEAN` cases) it writes an OpenAI Chat
Completions session (a user request, each call and its result, then the reply) to a temporary
directory and scans it. A
failed case is found when the scan reports a `claimed-success` finding on the reply; a clean case
that gives one is a false positive. It prints recall (found / failed cases) and precision (found /
all findings), and with `--verbose` each miss and each false positive; it exits 0 whatever they are.
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
from claimed_heldout import Call
from claimed_heldout_clean import CLEAN
from claimed_heldout_commands import FAILED_COMMANDS
from claimed_heldout_services import FAILED_SERVICES

from inspector.scan.scanner import scan_file

KIND = "claimed-success"
FAILED = FAILED_COMMANDS + FAILED_SERVICES


def _messages(calls: list[Call], reply: str) -> list[dict[str, Any]]:
    """A user request, each call with its result, then `reply`."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": "Please take care of it."}]
    for number, (tool, arguments, result) in enumerate(calls):
        call = {
            "id": f"call_{number}",
            "type": "function",
            "function": {"name": tool, "arguments": json.dumps(arguments)},
        }
        messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        content = result if isinstance(result, str) else json.dumps(result)
        messages.append({"role": "tool", "tool_call_id": f"call_{number}", "content": content})
    messages.append({"role": "assistant", "content": reply})
    return messages


def _flagged(folder: Path, number: int, calls: list[Call], reply: str) -> bool:
    """Whether the reply of a session of `calls` then `reply` gets a `claimed-success` finding."""
    path = folder / f"session_{number}.json"
    path.write_text(json.dumps({"messages": _messages(calls, reply)}))
    (result,) = scan_file(path)
    return any(finding.kind == KIND for finding in result.findings)


def main() -> None:
    """Scan the corpus and print recall and precision."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--verbose", action="store_true")
    verbose = parser.parse_args().verbose
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        found = noisy = 0
        for number, (source, calls, reply) in enumerate(FAILED):
            flagged = _flagged(folder, number, calls, reply)
            found += flagged
            if verbose and not flagged:
                print(f"MISS {source}: {reply!r}")
        for number, (source, calls, reply) in enumerate(CLEAN, len(FAILED)):
            flagged = _flagged(folder, number, calls, reply)
            noisy += flagged
            if verbose and flagged:
                print(f"FALSE POSITIVE {source}: {reply!r}")
    precision = found / (found + noisy) if found + noisy else 1.0
    print(f"recall:           {found}/{len(FAILED)} = {found / len(FAILED):.3f}")
    print(f"precision:        {found}/{found + noisy} = {precision:.3f}")
    print(f"false positives:  {noisy}/{len(CLEAN)}")


if __name__ == "__main__":
    main()
