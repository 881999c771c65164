"""Benchmark: the app on a large session, against plain `json.load` of the same file.

Run by hand from anywhere (pytest does not collect it):

    python tests/benchmarks/bench_tui.py [--messages 200000]

It writes the scan benchmark's deterministic session (`bench_scan.py`'s generator, about 75 MB for
200,000 messages) to a temporary directory, then runs three times each, each in its own process
and interleaved: a baseline that only `json.load`s the file, and the app opened headless on the
file (`App.run_test` at 120x40). For the app it reports the time from process start until the turn
list is on screen, until the first flagged turn is selected with its detail shown, the time of 50
`n` presses and of 50 page-downs, and the peak memory (the child's own `ru_maxrss`). The key
presses are also timed on a 2,000-message session and for a key bound to nothing (Pilot's own cost
per press), so what grows with the session's size shows apart from the cost of drawing a frame.
It prints the best of each against the targets (first flagged turn within 2 s; memory at most 3x
json.load) and exits 0 whatever the numbers (it is a report, not a test) unless a child crashes.

    python tests/benchmarks/bench_tui.py --history [--messages 1000000]

measures the app on an SQLite history instead: `bench_sqlite.py`'s deterministic RubyLLM database
(chats of 100 messages), against a plain Python `SELECT` of every message row, each in its own
process, interleaved. For the app: the time from process start until the picker shows the
database's conversations (its first screen; target 2 s), until every conversation is scanned,
with the longest the app's event loop was late meanwhile (what a key press would wait), then from
Enter on the first conversation with findings until its first flagged turn is shown; the peak
memory of each. "Listed" is when the table has been drawn with the rows.

    python tests/benchmarks/bench_tui.py --opens 20 [--messages 50000]

opens that many sessions of the scan benchmark's generator (hard links to one file) one after
another from the picker of their folder, each until its review is ready, then back to the list,
and reports the app's memory (resident, now) after the first and after the last, against the
target (the last within 1.3 times the first).

    python tests/benchmarks/bench_tui.py --list [--rows 2000]

measures the picker's list at scale: a directory of 2,000 session files (copies of seven samples
with differing findings) and a history of 2,000 conversations (`bench_sqlite.py`'s, chats of 100
messages), each opened headless at 120x40 in its own process, three times. For each it reports the
time from process start until the first rows are drawn, until every row is scanned, and then the
time from a key press until the table is drawn again: `s` (sort by findings), `S` (reverse), `f`
(only rows with findings), one letter typed in the `/` search, `G` (every row drawn, the cursor
on the last), `Esc` (back to the listing), against a key bound to nothing (Pilot's own cost).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_runner

FIRST_FLAGGED_TARGET, MEMORY_TARGET, RUNS, PRESSES, SMALL = 2.0, 3.0, 3, 50, 2000
FIRST_SCREEN_TARGET, OPENS_MEMORY_TARGET = 2.0, 1.3
HERE = Path(__file__).resolve().parent
SELECT = (
    "import json, sqlite3, sys, time\nfor row in sqlite3.connect(sys.argv[1]).execute('SELECT * FROM messages'): pass\n"
    "print(json.dumps({'SELECT': time.time() - float(sys.argv[2])}))"
)


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


def measure_app(path: Path, started: float, keys: bool = True) -> dict[str, float]:
    """In the child: open the app on `path` headless and time what a person waits for (without
    `keys`, only until every finding is known: `bench_app_start.py`)."""
    from inspector.tui.app import InspectorApp
    from inspector.tui.review.detail import TurnDetail
    from inspector.tui.review.turn_list import TurnList

    figures: dict[str, float] = {}

    async def play() -> None:
        app = InspectorApp(path)
        async with app.run_test(size=(120, 40)) as pilot:
            # polled with plain sleeps: `pilot.pause` makes every widget handle a message each
            # time, which competes with the load worker (as no person watching the screen does)
            screen = app.screen
            while screen.session is None:
                await asyncio.sleep(0.005)
            await drawn(screen)
            figures["turns listed"] = time.time() - started
            detail = screen.query_one(TurnDetail).query_one("#finding")
            while screen._current() is None:  # a finding in the detail: from the first findings, or the full scan
                await asyncio.sleep(0.005)
            await drawn(screen)
            figures["first flagged turn"] = time.time() - started
            position = screen.query_one(TurnList).position
            while screen.review is None:
                await asyncio.sleep(0.01)
            figures["every finding known"] = time.time() - started
            await pilot.pause()
            assert position == screen.review.findings(0)[0].turn, "first flagged turn not selected"
            assert detail.visual, "no detail shown"
            figures["turns"] = len(screen.session.turns)
            figures["flagged"] = screen.review.counts(0).flagged
            if not keys:
                return
            for key, label in (
                ("n", f"{PRESSES} n presses"),
                ("pagedown", f"{PRESSES} page-downs"),
                ("z", f"{PRESSES} presses of an unbound key"),
            ):
                begin = time.perf_counter()
                for _ in range(PRESSES):
                    await pilot.press(key)
                await pilot.pause()
                figures[label] = time.perf_counter() - begin

    asyncio.run(play())
    return figures


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
            drawn = asyncio.Event()  # not pilot.pause(): it also waits (up to 1 s) for the scan's thread to idle
            table.call_after_refresh(drawn.set)
            await drawn.wait()
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
        figures, _ = run_child([sys.executable, __file__, "--opens-child", str(folder)])
        ratio = figures["last"] / figures["first"]
        print(f"{opens} sessions of {messages:,} messages opened in a row from the picker")
        print(f"{'memory after the first open':40}{figures['first']:>8.0f} MB")
        print(f"{f'memory after open {opens}':40}{figures['last']:>8.0f} MB  ({ratio:.2f}x the first)")
        print(
            f"memory: {ratio:.2f}x (target <= {OPENS_MEMORY_TARGET}x) "
            f"{'ok' if ratio <= OPENS_MEMORY_TARGET else 'OVER TARGET'}"
        )


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
                run_child([sys.executable, __file__, "--list-child", str(path), str(time.time())]) for _ in range(RUNS)
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
            apps.append(run_child([sys.executable, __file__, "--picker", str(path), str(time.time())]))
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--messages", type=int, default=None, help="messages in the generated session (200,000) or history (1,000,000)"
    )
    parser.add_argument("--history", action="store_true", help="measure the picker on an SQLite history")
    parser.add_argument("--app", nargs=2, metavar=("PATH", "STARTED"), help=argparse.SUPPRESS)
    parser.add_argument("--app-start", nargs=2, metavar=("PATH", "STARTED"), help=argparse.SUPPRESS)
    parser.add_argument("--picker", nargs=2, metavar=("PATH", "STARTED"), help=argparse.SUPPRESS)
    parser.add_argument(
        "--opens", type=int, metavar="N", help="open N sessions in a row from the picker and report the memory"
    )
    parser.add_argument("--opens-child", metavar="FOLDER", help=argparse.SUPPRESS)
    parser.add_argument(
        "--list", action="store_true", help="measure the picker's list on 2,000 files and conversations"
    )
    parser.add_argument("--rows", type=int, default=2000, help="files and conversations for --list (2,000)")
    parser.add_argument("--list-child", nargs=2, metavar=("PATH", "STARTED"), help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.opens_child:  # the child that opens every session of the folder
        print(json.dumps(measure_opens(Path(options.opens_child))))
        return
    if options.opens:
        compare_opens(options.opens, options.messages or 50_000)
        return
    if options.app:  # the child that runs the app
        print(json.dumps(measure_app(Path(options.app[0]), float(options.app[1]))))
        return
    if options.app_start:  # the child that runs the app until every finding is known
        print(json.dumps(measure_app(Path(options.app_start[0]), float(options.app_start[1]), keys=False)))
        return
    if options.picker:  # the child that runs the app on a database
        print(json.dumps(measure_picker(Path(options.picker[0]), float(options.picker[1]))))
        return
    if options.list_child:  # the child that runs the picker's list
        print(json.dumps(measure_list(Path(options.list_child[0]), float(options.list_child[1]))))
        return
    if options.list:
        compare_list(options.rows)
        return
    if options.history:
        compare_history(options.messages or 1_000_000)
        return
    options.messages = options.messages or 200_000
    with tempfile.TemporaryDirectory(prefix="inspector-bench-") as directory:
        path, small = Path(directory) / "bench.openai.json", Path(directory) / "small.openai.json"
        for target, count in ((path, options.messages), (small, SMALL)):
            subprocess.run(
                [sys.executable, str(HERE / "bench_scan.py"), "--messages", str(count), "--generate-only", str(target)],
                capture_output=True,
                check=True,
            )
        print(f"session: {options.messages:,} messages, {path.stat().st_size / 1e6:.1f} MB")
        baseline = [
            sys.executable,
            "-c",
            "import json,sys,time; s=time.time(); json.load(open(sys.argv[1])); "
            "print(json.dumps({'json.load': time.time() - float(sys.argv[2])}))",
            str(path),
        ]
        loads, apps, smalls = [], [], []
        for _ in range(RUNS):  # interleaved, so drift in the machine's load hits all alike
            loads.append(run_child(baseline + [str(time.time())]))
            apps.append(run_child([sys.executable, __file__, "--app", str(path), str(time.time())]))
            smalls.append(run_child([sys.executable, __file__, "--app", str(small), str(time.time())]))
        best_load = min(figures["json.load"] for figures, _ in loads)
        load_memory = max(megabytes for _, megabytes in loads)
        app_memory = max(megabytes for _, megabytes in apps)
        print(f"turns: {apps[0][0]['turns']:,}, flagged findings: {apps[0][0]['flagged']:,}\n")
        print(f"{'':40}{'this session':>14}{f'{SMALL:,} messages':>16}")
        print(f"{'json.load (process start to loaded)':40}{best_load:>12.2f} s")
        for label in apps[0][0]:
            if label not in ("turns", "flagged"):
                big_figure = min(figures[label] for figures, _ in apps)
                small_figure = min(figures[label] for figures, _ in smalls)
                print(f"{'app: ' + label:40}{big_figure:>12.2f} s{small_figure:>14.2f} s")
        print(f"{'peak memory json.load / app':40}{load_memory:>9.0f} MB / {app_memory:.0f} MB\n")
        first = min(figures["first flagged turn"] for figures, _ in apps)
        verdict = "ok" if first <= FIRST_FLAGGED_TARGET else "OVER TARGET"
        print(
            f"first flagged turn: {first:.2f} s, {first / best_load:.1f}x json.load "
            f"(target <= {FIRST_FLAGGED_TARGET} s) {verdict}"
        )
        ratio = app_memory / load_memory
        print(
            f"memory: {ratio:.1f}x json.load (target <= {MEMORY_TARGET}x) "
            f"{'ok' if ratio <= MEMORY_TARGET else 'OVER TARGET'}"
        )


if __name__ == "__main__":
    main()
