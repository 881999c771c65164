"""Benchmark: `inspector scan --engine spark` on `local[2]` against the scan in one process (and
`--jobs 2`) of the same dataset of many session files.

Run by hand from anywhere (pytest does not collect it; it needs `inspector[spark]` and Java):

    python tests/benchmarks/bench_spark.py [--files 200] [--messages 1000] [--runs 2] [--keep]

It writes a dataset of FILES session files of about MESSAGES messages each in a temporary directory
(a child process writes it), half OpenAI Chat sessions as `bench_scan.py` writes them (fake results,
broken arguments and leaked markup planted), half OpenAI fine-tuning JSON Lines (the same kind of
messages cut into conversations of about 20, one a line). Then it runs, `--runs` times each,
interleaved and each in its own process, `python -m inspector scan --json DIR`, the same with
`--jobs 2` (the worker pool splits one large SQLite history; a directory's files are scanned in this
process either way), and with `--engine spark --spark-master local[2]`, and prints each one's best
wall time, sessions/s and MB/s, and whether the reports are the same. Spark's time includes starting
its JVM and executors, measured alone on a one-file dataset (`spark start`): the job's own throughput
is given without it too. It exits 0 whatever the numbers (a report, not a test).

How it spreads over a cluster: Spark's file source packs the files into partitions of up to
`spark.sql.files.maxPartitionBytes` (128 MB, each file counted 4 MB more: `openCostInBytes`), at
least as many as the cluster's cores, and each executor core scans one partition at a time, a file
at a time, with the project's own detectors. A dataset of many files therefore scans about as many
times faster as there are cores, less the start (tens of seconds) and what the driver does alone:
with `--json` it receives every session's summary and writes the report (about what one process
spends writing it); with `--findings-out` the executors write the Parquet tables themselves and
the driver receives only the totals. A single file is read whole by one executor, so one huge file
does not spread: split it, or store it as a Parquet table of messages (`--map`), which spreads by
conversation.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_runner
import bench_scan

LINE_SESSION = 20  # messages in each fine-tuning line, about: a line ends before a user message


def generate(folder: Path, files: int, messages: int) -> dict[str, int]:
    """Write `files` session files of about `messages` messages each into `folder`; return the problems planted."""
    folder.mkdir(parents=True, exist_ok=True)
    planted: dict[str, int] = {}
    for number in range(files):
        count = messages + (number % 7 - 3) * messages // 10  # sizes vary, so files differ
        chat = folder / f"session-{number:05d}.openai.json"
        for kind, n in bench_scan.generate(chat, count).items():
            planted[kind] = planted.get(kind, 0) + n
        if number % 2:
            _as_fine_tuning_lines(chat, chat.with_name(f"finetune-{number:05d}.openai.jsonl"))
            chat.unlink()
    return planted


def _as_fine_tuning_lines(chat: Path, lines: Path) -> None:
    """The messages of the session `chat` cut into conversations, one `{"messages", "tools"}` a line."""
    session = json.loads(chat.read_text(encoding="utf-8"))
    conversations, current = [], []
    for message in session["messages"]:
        if message["role"] == "user" and len(current) >= LINE_SESSION:
            conversations.append(current)
            current = []
        current.append(message)
    conversations.append(current)
    with lines.open("w", encoding="utf-8") as out:
        for conversation in conversations:
            out.write(json.dumps({"messages": conversation, "tools": session["tools"]}, ensure_ascii=False) + "\n")


def _commands(folder: Path, tiny: Path) -> dict[str, list[str]]:
    scan = [sys.executable, "-m", "inspector", "scan", "--json", "--no-cache"]
    spark = ["--engine", "spark", "--spark-master", "local[2]"]
    return {
        "one process": scan + [str(folder)],
        "--jobs 2": scan + ["--jobs", "2", str(folder)],
        "spark local[2]": scan + spark + [str(folder)],
        "spark start": scan + spark + [str(tiny)],
    }


def report(options, folder: Path, planted: dict[str, int]) -> None:
    """Measure each engine on the dataset in `folder` and print the figures."""
    size = sum(path.stat().st_size for path in folder.iterdir()) / 1e6
    with tempfile.TemporaryDirectory(prefix="inspector-bench-spark-") as scratch:
        tiny, outputs = Path(scratch) / "tiny", Path(scratch)
        tiny.mkdir()
        (tiny / "one.json").write_text('{"messages": [{"role": "user", "content": "hi"}]}')
        commands = _commands(folder, tiny)
        measured: dict[str, list] = {name: [] for name in commands}
        for _ in range(options.runs):
            for name, command in commands.items():
                with (outputs / f"{name}.json").open("wb") as output:
                    measured[name].append(bench_runner.measure(command, (0, 1), output))
        reports = {name: (outputs / f"{name}.json").read_bytes() for name in commands if name != "spark start"}
        sessions = json.loads(reports["one process"])["summary"]["sessions"]
        found = json.loads(reports["one process"])["summary"]["by_kind"]
    print(
        f"dataset: {len(list(folder.iterdir())):,} files, {size:.1f} MB, {sessions:,} sessions, "
        f"planted: {bench_runner.planted_text(planted)}"
    )
    print(f"\n{'':16}{'seconds':>9}{'worst':>8}{'sessions/s':>12}{'MB/s':>8}   (best of {options.runs})")
    for name, runs in measured.items():
        best = min(seconds for seconds, _, _ in runs)
        rates = f"{sessions / best:>12,.0f}{size / best:>8.2f}" if name != "spark start" else ""
        print(f"{name:16}{best:>9.2f}{max(seconds for seconds, _, _ in runs):>8.2f}{rates}")
    start = min(seconds for seconds, _, _ in measured["spark start"])
    job = min(seconds for seconds, _, _ in measured["spark local[2]"]) - start
    print(
        f"{'spark job alone':16}{job:>9.2f}{'':>8}{sessions / job:>12,.0f}{size / job:>8.2f}"
        "   (spark local[2] less spark start)"
    )
    same = all(text == reports["one process"] for text in reports.values())
    print(
        f"\nreports: {'the same' if same else 'DIFFERENT'} from each engine; findings: "
        + ", ".join(f"{n:,} {kind}" for kind, n in sorted(found.items()))
    )


def main() -> None:
    parser = bench_runner.arguments(
        __doc__,
        "--files",
        200,
        "session files in the generated dataset",
        keep_help="keep the generated dataset and print its path",
    )
    parser.add_argument("--messages", type=int, default=1000, help="messages in each file, about")
    parser.set_defaults(runs=2)
    options = parser.parse_args()
    if options.generate_only:
        print(json.dumps(generate(Path(options.generate_only), options.size, options.messages)))
        return
    folder = Path(tempfile.mkdtemp(prefix="inspector-bench-")) / "dataset"
    try:  # written by a child process, as the other benchmarks' files are
        child = [
            sys.executable,
            __file__,
            "--files",
            str(options.size),
            "--messages",
            str(options.messages),
            "--generate-only",
            str(folder),
        ]
        report(options, folder, json.loads(subprocess.run(child, capture_output=True, text=True, check=True).stdout))
    finally:
        if options.keep:
            print(f"kept {folder}")
        else:
            shutil.rmtree(folder.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
