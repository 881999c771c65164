"""Benchmark: `inspector scan --json` on a large RubyLLM history in PostgreSQL against a plain `SELECT`.

Run by hand from anywhere (pytest does not collect it), on a machine with Debian's `postgresql`:

    python tests/benchmarks/bench_postgres.py [--messages 1000000] [--runs 3]

It starts a throwaway server (`tests/helpers/postgres_cluster.py`), has `bench_sqlite.py`'s generator write
its deterministic RubyLLM history of N messages (chats of 100; 2% of the replies start with a fake
`save_memory` result) into SQLite, and loads it into RubyLLM's tables on PostgreSQL as a Rails app
migrates them (`tests/helpers/postgres_histories.py`) with `COPY`. The planted malformed arguments cannot
be stored in a `jsonb` column: they are loaded well formed, and not counted. Then, each in its own
process and interleaved: a baseline that only iterates in Python over `SELECT * FROM messages`
through psycopg (a server-side cursor, as the scan reads), `python -m inspector scan --json URL`
(one process) and the same with `--jobs 2`; it prints the best and worst wall time, the best CPU
time and the peak memory of each, the ratio to the baseline (target at most 3.0x), the findings
against the problems planted, and the time and peak memory of one `fix --accept all --in-place`
(with the fixes and conversations it wrote).
It exits 0 whatever the numbers (a report, not a test) unless a child crashes.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[1])]  # the scripts beside it, and the tests' helpers
import bench_runner
from bench_runner import SCAN, TIME_TARGET

BASELINE = (
    "import psycopg, sys\nconn = psycopg.connect(sys.argv[1])\ncursor = conn.cursor(name='all')\n"
    "cursor.itersize = 2000\ncursor.execute('SELECT * FROM messages')\nfor row in cursor: pass"
)
MESSAGE_COLUMNS = ("id", "chat_id", "role", "content", "model_id", "tool_call_id", "created_at", "updated_at")
URL_VARIABLE = "BENCH_POSTGRES_URL"  # the database the child loads the history into
CALL_COLUMNS = ("id", "message_id", "tool_call_id", "name", "arguments", "created_at", "updated_at")


def load(history: Path, url: str) -> int:
    """Copy the RubyLLM history of the SQLite file `history` into RubyLLM's tables at `url`; the
    number of malformed arguments stored well formed."""
    import psycopg

    from tests.helpers.postgres_histories import RUBYLLM_SCHEMA

    source = sqlite3.connect(history)
    mended = 0
    with psycopg.connect(url) as conn:
        conn.execute(RUBYLLM_SCHEMA)
        conn.execute("ALTER TABLE messages DROP CONSTRAINT fk_rails_552873cb52")  # back once the calls are in
        _copy(
            conn,
            "chats",
            ("id", "model_id", "created_at", "updated_at"),
            source.execute("SELECT id, model_id, created_at, updated_at FROM chats ORDER BY id"),
        )
        _copy(conn, "messages", MESSAGE_COLUMNS, source.execute(f"SELECT {', '.join(MESSAGE_COLUMNS)} FROM messages"))
        calls = []
        for row in source.execute(f"SELECT {', '.join(CALL_COLUMNS)} FROM tool_calls"):
            if row[4].endswith("}}}"):
                mended += 1
                row = (*row[:4], row[4][:-2], *row[5:])
            calls.append(row)
        _copy(conn, "tool_calls", CALL_COLUMNS, calls)
        conn.execute(
            "ALTER TABLE messages ADD CONSTRAINT fk_rails_552873cb52 FOREIGN KEY (tool_call_id) "
            "REFERENCES tool_calls (id)"
        )
        for table in ("chats", "messages", "tool_calls"):
            conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
    source.close()
    return mended


def _copy(conn, table: str, columns: tuple[str, ...], rows) -> None:
    with conn.cursor().copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


def compare(url: str, planted: dict[str, int], runs: int) -> None:
    """Measure the baseline and both scans, print the table and the ratios, check the findings,
    then measure one `fix --accept all --in-place`."""
    scan = [sys.executable, "-m", "inspector", "scan", "--json", url]
    measured = bench_runner.interleave(
        {
            "SELECT": ([sys.executable, "-c", BASELINE, url], (0,)),
            SCAN: (scan, (0, 1)),
            "  --jobs 2": ([*scan, "--jobs", "2"], (0, 1)),
        },
        runs,
    )
    print(f"\n{'':12}{'best s':>8}{'worst s':>9}{'best CPU s':>12}{'peak MB':>9}")
    for name, rows in measured.items():
        walls = [wall for wall, _, _ in rows]
        print(
            f"{name:12}{min(walls):>8.2f}{max(walls):>9.2f}{min(cpu for _, cpu, _ in rows):>12.2f}"
            f"{min(mb for _, _, mb in rows):>9.0f}"
        )
    best = {name: min(wall for wall, _, _ in rows) for name, rows in measured.items()}
    ratio = best[SCAN] / best["SELECT"]
    print(
        f"\nscan time:   {ratio:.1f}x SELECT (target <= {TIME_TARGET}x) {'ok' if ratio <= TIME_TARGET else 'OVER TARGET'}"
        f"; --jobs 2: {best['  --jobs 2'] / best['SELECT']:.1f}x"
    )
    print(f"scan memory: {min(m for *_, m in measured[SCAN]) / min(m for *_, m in measured['SELECT']):.1f}x SELECT")
    bench_runner.print_findings(bench_runner.findings(url), planted, only_planted=True)
    fix = [sys.executable, "-m", "inspector", "fix", url, "--accept", "all", "--in-place"]
    wall, cpu, megabytes = bench_runner.measure(fix, (0, 1))
    print(f"fix --accept all --in-place: {wall:.2f} s ({cpu:.2f} s CPU), peak {megabytes:.0f} MB ({_fixed(url)})")


def _fixed(url: str) -> str:
    """How many fixes `inspector_fixes` records, in how many conversations."""
    import psycopg

    with psycopg.connect(url) as conn:
        fixes, conversations = conn.execute(
            "SELECT count(*), count(DISTINCT session_id) FROM inspector_fixes"
        ).fetchone()
    return f"{fixes:,} fixes in {conversations:,} conversations"


def generate_and_load(path: Path, count: int) -> dict[str, int]:
    """In the child: write the SQLite history of `count` messages to `path` and copy it into the
    database named by `BENCH_POSTGRES_URL`; the problems planted that it holds."""
    from bench_sqlite import generate

    planted = generate(path, count)
    planted["malformed-arguments"] -= load(path, os.environ[URL_VARIABLE])
    return planted


def main() -> None:
    parser = bench_runner.arguments(__doc__, "--messages", 1_000_000, "messages in the generated history")
    options = parser.parse_args()
    if options.generate_only:
        print(json.dumps(generate_and_load(Path(options.generate_only), options.size)))
        return
    from tests.helpers.postgres_cluster import running_server, server_binaries

    binaries = server_binaries()
    if binaries is None:
        sys.exit("PostgreSQL's initdb and pg_ctl are not installed (apt-get install postgresql)")
    with running_server(binaries) as server:
        os.environ[URL_VARIABLE] = url = server.database()
        # generated and loaded in a child: a child's peak memory starts at this process's
        with bench_runner.generated(__file__, "--messages", options.size, "history.db", False) as (_, planted):
            total = planted.pop("messages")
            print(f"history: {total:,} messages in PostgreSQL, planted: " + bench_runner.planted_text(planted))
            compare(url, planted, options.runs)


if __name__ == "__main__":
    main()
