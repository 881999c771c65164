"""Benchmark: `inspector --follow PATH` while an agent writes the session, and while it is idle.

Run by hand from anywhere (pytest does not collect it):

    python tests/benchmarks/bench_follow.py [--appends 20] [--idle 5]

In one process, the app opened headless on a Claude Code transcript (the real sample, its prompt
and fake-result reply chained again to about 2,000 lines): `--appends` times, another process
appends two lines (a prompt and a reply opening with a fake result) and the time until the review screen lists the new turns is taken (the
target: within 1 s). Then the CPU the process uses over `--idle` seconds while nothing is written,
with `--follow` and without it (the app alone), side by side: following an idle file should cost
next to nothing. It exits 0 whatever the figures (a report, not a test).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from inspector.tui.app import InspectorApp
from tests.helpers.samples import TOOL_SAMPLES

TARGET_S = 1.0
LINES = (TOOL_SAMPLES / "claude-code.jsonl").read_bytes().splitlines(keepends=True)
APPEND = "import sys\nwith open(sys.argv[1], 'ab') as out:\n    out.write(sys.stdin.buffer.read())\n"


def transcript(folder: Path) -> Path:
    """The sample's lines, then its prompt and fake-result reply again and again (each a new turn of
    the chain), to about 2,000 lines."""
    path = folder / "transcript.jsonl"
    path.write_bytes(b"".join(LINES))
    exchanges = [exchange(path) for _ in range(1000)]
    with path.open("ab") as out:
        out.write(b"".join(exchanges))
    return path


_LAST: list[str] = []  # the uuid each new exchange hangs from


def exchange(path: Path) -> bytes:
    """A prompt and a reply opening with a fake result, chained after the last record written."""
    if not _LAST:
        _LAST.append(json.loads(LINES[5])["uuid"])
    lines = []
    for line in (LINES[2], LINES[5]):
        record = json.loads(line)
        record["uuid"], record["parentUuid"] = str(uuid.uuid4()), _LAST[-1]
        _LAST.append(record["uuid"])
        lines.append(json.dumps(record).encode() + b"\n")
    return b"".join(lines)


async def measure(path: Path, follow: bool, appends: int, idle: float) -> tuple[list[float], float]:
    """The seconds each append took to be listed (following), and the CPU seconds of `idle`."""
    app = InspectorApp(path, follow=follow)
    shown: list[float] = []
    async with app.run_test(size=(120, 40)) as pilot:
        while app.screen.review is None:
            await pilot.pause(0.05)
        await pilot.pause(1.0)  # the follower's first read done
        for number in range(appends if follow else 0):
            count = len(app.screen.session.turns)
            lines = exchange(path)
            begin = time.perf_counter()
            subprocess.run([sys.executable, "-c", APPEND, str(path)], input=lines, check=True)
            while len(app.screen.session.turns) <= count:
                await pilot.pause(0.005)
            shown.append(time.perf_counter() - begin)
        cpu = time.process_time()
        await pilot.pause(idle)
        return shown, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--appends", type=int, default=20, help="appends timed (20)")
    parser.add_argument("--idle", type=float, default=5.0, help="seconds of idle CPU measured (5)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="inspector-bench-follow-") as folder:
        path = transcript(Path(folder))
        shown, following = asyncio.run(measure(path, True, options.appends, options.idle))
        _, alone = asyncio.run(measure(path, False, 0, options.idle))
    print(f"transcript: {len(LINES) + 2000:,} lines; {options.appends} appends of a turn by another process")
    median = statistics.median(shown)
    print(
        f"appended turn listed: median {median * 1000:.0f} ms, slowest {max(shown) * 1000:.0f} ms "
        f"(target <= {TARGET_S:g} s) {'ok' if max(shown) <= TARGET_S else 'OVER TARGET'}"
    )
    print(
        f"idle CPU over {options.idle:g} s: following {following * 1000:.0f} ms, "
        f"the app alone {alone * 1000:.0f} ms (following adds {(following - alone) * 1000:+.0f} ms)"
    )


if __name__ == "__main__":
    main()
