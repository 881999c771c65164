"""The picker's list at scale (`bench_tui.py --list`): a directory of session files (copies of seven
samples with differing findings) and a history of as many conversations, each opened headless in
its own process; the time until the first rows are drawn, until every row is scanned, and from each
key of `LIST_KEYS` until the table is drawn again.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import bench_runner
from tui_children import CHILD_SCRIPT, HERE, RUNS, drawn, run_child

LIST_SAMPLES = (
    "analyst-agent.openai.json",
    "clean.openai.json",
    "coding-agent.dump.json",
    "finetune.openai.jsonl",
    "memory-agent.openai.json",
    "notes-agent.sharegpt.jsonl",
    "support-agent.anthropic.json",
)
LIST_KEYS = (
    ("s", "sort by findings"),
    ("S", "reverse the sort"),
    ("f", "only rows with findings"),
    ("escape", "Esc: the listing again"),
    ("slash", "open the search"),
    ("n", "one letter searched"),
    ("escape", "Esc: the search cleared"),
    ("G", "G: every row drawn"),
    ("g", "g: back to the first row"),
    ("pagedown", "a page down (for comparison)"),
    ("z", "a key bound to nothing"),
)


def measure_list(path: Path, started: float) -> dict[str, float]:
    """In the child: open the picker on `path` (a directory or a history) headless, wait for its
    first rows and for the whole scan, then time each key of LIST_KEYS until the table is drawn."""
    from inspector.tui.app import InspectorApp
    from inspector.tui.picker.table import ListTable

    figures: dict[str, float] = {}

    async def play() -> None:
        app = InspectorApp(path)
        async with app.run_test(size=(120, 40)) as pilot:
            picker = app.screen
            table = picker.query_one(ListTable)
            while not table.row_count:
                await asyncio.sleep(0.005)
            await drawn(table)
            figures["first rows drawn"] = time.time() - started
            while not picker.scanned.is_set():
                await asyncio.sleep(0.05)
            await drawn(table)
            figures["every row scanned"] = time.time() - started
            for key, label in LIST_KEYS:
                begin = time.perf_counter()
                await pilot.press(key)
                await drawn(table)
                figures[label] = time.perf_counter() - begin
            figures["rows"] = len(table.listed)

    asyncio.run(play())
    return figures


def compare_list(rows: int) -> None:
    """Write the directory and the history of `rows` each, run the picker on both, print the figures."""
    with tempfile.TemporaryDirectory(prefix="inspector-bench-") as directory:
        folder, history = Path(directory) / "sessions", Path(directory) / "history.rubyllm.db"
        folder.mkdir()
        for number in range(rows):
            name = LIST_SAMPLES[number % len(LIST_SAMPLES)]
            shutil.copyfile(bench_runner.ROOT / "inspector" / "samples" / name, folder / f"{number:05}.{name}")
        subprocess.run(
            [
                sys.executable,
                str(HERE / "bench_sqlite.py"),
                "--messages",
                str(rows * 100),
                "--generate-only",
                str(history),
            ],
            capture_output=True,
            check=True,
        )
        for label, path in ((f"directory of {rows:,} files", folder), ("history", history)):
            runs = [
                run_child([sys.executable, str(CHILD_SCRIPT), "--list-child", str(path), str(time.time())])
                for _ in range(RUNS)
            ]
            print(f"{label}: {runs[0][0].pop('rows'):,} rows")
            for figure in runs[0][0]:
                best = min(figures[figure] for figures, _ in runs)
                shown = (
                    f"{best:>8.2f} s "
                    if figure in ("first rows drawn", "every row scanned")
                    else f"{best * 1000:>8.0f} ms"
                )
                print(f"  {figure:40}{shown} (best of {RUNS})")
            print(f"  {'peak memory':40}{max(mb for _, mb in runs):>8.0f} MB\n")
