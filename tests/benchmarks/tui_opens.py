"""Memory across many opens (`bench_tui.py --opens N`): that many sessions (hard links to one file
of the scan benchmark's generator) opened one after another from the picker of their folder, each
until its review is ready, then back to the list; the app's resident memory after the first open
and after the last.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from tui_children import CHILD_SCRIPT, HERE, run_child

OPENS_MEMORY_TARGET = 1.3


def resident_megabytes() -> float:
    """This process's resident memory now, in MB (Linux)."""
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


def measure_opens(folder: Path) -> dict[str, float]:
    """In the child: open each session of `folder` from the picker in turn, until its review is
    ready, and go back; the resident memory after each open."""
    from textual.widgets import DataTable

    from inspector.tui.app import InspectorApp
    from inspector.tui.review.screen import ReviewScreen

    opened: list[float] = []

    async def play() -> None:
        app = InspectorApp(folder)
        async with app.run_test(size=(120, 40)) as pilot:
            table = app.screen.query_one(DataTable)
            count = len(list(folder.iterdir()))
            while table.row_count < count:
                await pilot.pause(0.05)
            for row in range(count):
                table.move_cursor(row=row)
                await pilot.press("enter")
                while not isinstance(app.screen, ReviewScreen) or app.screen.review is None:
                    await pilot.pause(0.02)
                await pilot.pause()
                opened.append(resident_megabytes())
                await pilot.press("escape")
                while isinstance(app.screen, ReviewScreen):
                    await pilot.pause(0.02)

    asyncio.run(play())
    return {"first": opened[0], "last": opened[-1], "opens": len(opened)}


def compare_opens(opens: int, messages: int) -> None:
    """Generate one session, link it `opens` times into a folder, and report the app's memory
    after opening the first and after opening the last."""
    with tempfile.TemporaryDirectory(prefix="inspector-bench-") as directory:
        folder = Path(directory) / "sessions"
        folder.mkdir()
        first = folder / "s000.openai.json"
        subprocess.run(
            [sys.executable, str(HERE / "bench_scan.py"), "--messages", str(messages), "--generate-only", str(first)],
            capture_output=True,
            check=True,
        )
        for number in range(1, opens):
            os.link(first, folder / f"s{number:03}.openai.json")
        figures, _ = run_child([sys.executable, str(CHILD_SCRIPT), "--opens-child", str(folder)])
        ratio = figures["last"] / figures["first"]
        print(f"{opens} sessions of {messages:,} messages opened in a row from the picker")
        print(f"{'memory after the first open':40}{figures['first']:>8.0f} MB")
        print(f"{f'memory after open {opens}':40}{figures['last']:>8.0f} MB  ({ratio:.2f}x the first)")
        print(
            f"memory: {ratio:.2f}x (target <= {OPENS_MEMORY_TARGET}x) "
            f"{'ok' if ratio <= OPENS_MEMORY_TARGET else 'OVER TARGET'}"
        )
