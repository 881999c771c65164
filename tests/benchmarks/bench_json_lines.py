"""Benchmark: reading a JSON Lines file into a `Document` against decoding its lines with `json.loads`
and with `msgspec` alone.

Run by hand (pytest does not collect it), on any JSON Lines file (`bench_claude_code.py --keep` and
`bench_codex.py --keep` write large ones):

    python tests/benchmarks/bench_json_lines.py FILE [--runs 3]

Each reader runs in a process of its own, the three in turn `--runs` times after a warm-up round;
each reads the file's bytes and decodes them with the collector paused (as a scan does), and
reports the CPU seconds of that (imports left out) and its peak memory. The readers:
`read_document`, what every scan of a JSON Lines file does first; `json.loads` on each line of the
file's text, the standard library's way (the text held whole and line by line); and `msgspec`'s
`decode_lines` on the bytes, which keeps no line and tells no line from another: a floor. Printed:
the best of each, and its peak as a multiple of the file's size.
"""

from __future__ import annotations

import argparse
import gc
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
READERS = ("read_document", "json.loads", "msgspec")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path, help="a JSON Lines file")
    parser.add_argument("--runs", type=int, default=3, help="runs of each reader (the best is shown)")
    parser.add_argument("--child", choices=READERS, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child:
        print(json.dumps(_read(options.child, options.file)))
        return
    runs: dict[str, list[dict[str, float]]] = {reader: [] for reader in READERS}
    for round_number in range(options.runs + 1):
        for reader in READERS:
            command = [sys.executable, __file__, str(options.file), "--child", reader]
            figures = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
            if round_number:  # the first round warms the file system's cache and the bytecode
                runs[reader].append(figures)
    size = options.file.stat().st_size / 2**20
    print(f"{options.file.name}: {size:,.1f} MiB, best of {options.runs}")
    print(f"{'reader':16}{'CPU s':>8}{'peak MiB':>10}{'x file':>8}")
    for reader, figures in runs.items():
        cpu, peak = min(f["cpu"] for f in figures), min(f["peak"] for f in figures)
        print(f"{reader:16}{cpu:>8.3f}{peak:>10.1f}{peak / size:>8.2f}")


def _read(reader: str, path: Path) -> dict[str, float]:
    """Read and decode `path` the way `reader` names, in this process; its CPU seconds and peak MiB."""
    sys.path.insert(0, str(ROOT))  # measure the tree this script is in
    import msgspec

    from inspector.sources.files.document import read_document

    gc.disable()
    started = time.process_time()
    if reader == "read_document":
        read_document(path)
    elif reader == "json.loads":
        [json.loads(line) for line in path.read_bytes().decode("utf-8-sig").split("\n") if line.strip()]
    else:
        msgspec.json.Decoder().decode_lines(path.read_bytes())
    cpu = time.process_time() - started
    return {"cpu": cpu, "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


if __name__ == "__main__":
    main()
