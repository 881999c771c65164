"""What the app's benchmarks share: each measurement runs in its own process (`bench_tui.py` with
a hidden option, the child that drives the app headless), which prints its figures as JSON; the
parent reads them with the child's peak memory. In the child, a widget's next frame is waited for.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path

import bench_runner

RUNS = 3
HERE = Path(__file__).resolve().parent
CHILD_SCRIPT = HERE / "bench_tui.py"  # the children are its hidden options


def run_child(command: list[str]) -> tuple[dict, float]:
    """Run `command`; return what it printed (JSON, or {}) and its peak RSS in MB. Exits on a crash."""
    with tempfile.TemporaryFile() as out:
        _, _, megabytes = bench_runner.measure(command, (0,), out)
        out.seek(0)
        printed = out.read().decode()
    return (json.loads(printed) if printed.strip() else {}), megabytes


async def drawn(widget) -> None:
    """Wait until `widget`'s screen is next drawn (not `pilot.pause`, which also waits for the
    app's workers' threads to idle)."""
    done = asyncio.Event()
    widget.call_after_refresh(done.set)
    await done.wait()
