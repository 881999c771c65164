"""The app on an SQLite history (`bench_tui.py --history`): `bench_sqlite.py`'s RubyLLM database
against a plain Python `SELECT` of every message row, each in its own process, interleaved. In the
child: the time until the picker lists the conversations, until every one is scanned (with the
longest the app's event loop was late meanwhile), and from Enter to the first flagged turn.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tui_children import CHILD_SCRIPT, HERE, RUNS, drawn, run_child

FIRST_SCREEN_TARGET = 2.0
SELECT = (
    "import json, sqlite3, sys, time\nfor row in sqlite3.connect(sys.argv[1]).execute('SELECT * FROM messages'): pass\n"
    "print(json.dumps({'SELECT': time.time() - float(sys.argv[2])}))"
)


def measure_picker(path: Path, started: float) -> dict[str, float]:
    """In the child: open the app on the database `path` headless and time what a person waits for."""
    from textual.widgets import DataTable

    from inspector.tui.app import InspectorApp
    from inspector.tui.review.screen import ReviewScreen

    figures: dict[str, float] = {}

    async def play() -> None:
        app = InspectorApp(path)
        async with app.run_test(size=(120, 40)) as pilot:
            picker = app.screen
            table = picker.query_one(DataTable)
            while not table.row_count:
                await asyncio.sleep(0.005)
            await drawn(table)  # not pilot.pause(): it also waits (up to 1 s) for the scan's thread to idle
            figures["picker: conversations listed"] = time.time() - started
            stall = 0.0
            while not picker.scanned.is_set():  # how late the app's event loop answers while the scan runs
                before = time.perf_counter()
                await asyncio.sleep(0.02)
                stall = max(stall, time.perf_counter() - before - 0.02)
            figures["picker: every conversation scanned"] = time.time() - started
            figures["longest stall of the app's loop while scanning"] = stall
            await pilot.pause()
            flagged = next(index for index in range(table.row_count) if str(table.get_row_at(index)[2]) != "none")
            table.move_cursor(row=flagged)
            begin = time.time()
            await pilot.press("enter")
            review = app.screen
            assert isinstance(review, ReviewScreen)
            while review._current() is None:
                await pilot.pause(0.01)
            figures["Enter to the first flagged turn"] = time.time() - begin
            figures["conversations"] = len(picker._targets)

    asyncio.run(play())
    return figures


def compare_history(messages: int) -> None:
    """Generate the RubyLLM history, run the SELECT and the app interleaved, print the figures."""
    with tempfile.TemporaryDirectory(prefix="inspector-bench-") as directory:
        path = Path(directory) / "history.rubyllm.db"
        subprocess.run(
            [sys.executable, str(HERE / "bench_sqlite.py"), "--messages", str(messages), "--generate-only", str(path)],
            capture_output=True,
            check=True,
        )
        print(f"history: {messages:,} messages, {path.stat().st_size / 1e6:.0f} MB")
        selects, apps = [], []
        for _ in range(RUNS):  # interleaved, so drift in the machine's load hits both alike
            selects.append(run_child([sys.executable, "-c", SELECT, str(path), str(time.time())]))
            apps.append(run_child([sys.executable, str(CHILD_SCRIPT), "--picker", str(path), str(time.time())]))
        best_select = min(figures["SELECT"] for figures, _ in selects)
        print(f"conversations: {apps[0][0].pop('conversations'):,}\n")
        print(
            f"{'SELECT * FROM messages (process start to done)':52}{best_select:>8.2f} s  "
            f"peak {max(mb for _, mb in selects):.0f} MB"
        )
        for label in apps[0][0]:
            figure = min(figures[label] for figures, _ in apps)
            if "stall" in label:  # the worst of the runs: a person meets the worst
                figure = max(figures[label] for figures, _ in apps)
                print(f"{'app: ' + label:52}{figure * 1000:>8.0f} ms (worst run)")
            else:
                print(f"{'app: ' + label:52}{figure:>8.2f} s  {figure / best_select:.2f}x SELECT")
        print(f"{'app: peak memory':52}{max(mb for _, mb in apps):>8.0f} MB\n")
        first = min(figures["picker: conversations listed"] for figures, _ in apps)
        print(
            f"first screen: {first:.2f} s (target <= {FIRST_SCREEN_TARGET} s) "
            f"{'ok' if first <= FIRST_SCREEN_TARGET else 'OVER TARGET'}"
        )
