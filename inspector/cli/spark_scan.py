"""`inspector scan DATASET --engine spark`: the scan of a dataset on Spark's executors
(`inspector.scan.spark`), reported as a scan in one process reports (text, or `--json`), or written
as Parquet tables for a warehouse (`--findings-out DIR`: then one line of totals is printed).

A DATASET is a directory, a glob or a URL (`s3a://bucket/logs/`, `hdfs:///logs/`) as Spark reads
it, so the command line keeps each path as it was typed (`PathsAsTyped`): a `Path` would fold the
`//` of a URL.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Sequence

from inspector.catalogue import load_tools_file
from inspector.errors import FAILED, FOUND, FOUND_NOTHING, InspectorError, check_session_found
from inspector.report.json_report import build_report, encode_json
from inspector.report.text_report import render_report
from inspector.scan.spark.dataset import DatasetRequest, Totals, collected, scanned, totals, write_tables
from inspector.scan.spark.executor import ScanOptions
from inspector.scan.spark.session import spark_session
from inspector.sources import location
from inspector.sources.sqlite.table import parse_map
from inspector.support.safe_text import one_line

SPARK, PROCESS = "spark", "process"


class PathsAsTyped(argparse.Action):
    """Store the paths as `Path`s or server URLs (`paths`) and as typed (`typed_paths`, for Spark's URLs)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                  option_string: str | None = None) -> None:
        typed = list(values) if isinstance(values, list) else []
        namespace.paths, namespace.typed_paths = [location(value) for value in typed], typed


def add_engine_options(parser: argparse.ArgumentParser) -> None:
    """`--engine`, `--spark-master` and `--findings-out` on `scan`."""
    parser.add_argument("--engine", choices=(PROCESS, SPARK), default=PROCESS,
                        help="process: this process (and --jobs workers for a large SQLite history); spark: Spark's "
                             "executors, on a DATASET: a directory, glob or URL of session files, or with --map a "
                             "Parquet table of messages (needs inspector[spark])")
    parser.add_argument("--spark-master", metavar="URL", help="the Spark master (default: spark-submit's, else local[*])")
    parser.add_argument("--findings-out", metavar="DIR", help="with --engine spark: write the findings and the rates "
                        "as Parquet tables DIR/findings and DIR/rates, and print one line of totals")


def run_spark_scan(args: argparse.Namespace) -> int:
    """Scan the datasets on Spark and report; the exit code as `scan`'s (the options checked
    first by `check_engine_options`)."""
    request = _request(args)
    with spark_session(args.spark_master) as spark, _spark_errors(request.shown):
        results = scanned(spark, request)
        if args.findings_out is not None:
            results = results.cache()  # the tables, then the totals or the report: scanned once
            write_tables(spark, results, args.findings_out)
            if not args.json:
                found, errors = totals(results, request)
                _print_errors(errors)
                if not errors:
                    _check_session(args, found.sessions, request)
                print(_totals_line(found, args.findings_out))
                return _exit_code(errors, sum(found.by_kind.values()))
        summaries, errors = collected(results, request)
    _print_errors(errors)
    if not errors:  # a file that could not be read may hold the session
        _check_session(args, len(summaries), request)
    if args.json:
        sys.stdout.write(encode_json(build_report(summaries, errors)) + "\n")
    elif summaries or not errors:
        sys.stdout.write(render_report(summaries))
    return _exit_code(errors, sum(len(summary.findings) for summary in summaries))


def check_engine_options(args: argparse.Namespace) -> None:
    """Fail with one line on options that need `--engine spark`, or that it does not take."""
    if args.engine != SPARK:
        given = [option for option, value in (("--spark-master", args.spark_master),
                                              ("--findings-out", args.findings_out)) if value is not None]
        if given:
            raise InspectorError(f"{' and '.join(given)} {'needs' if len(given) == 1 else 'need'} --engine spark")
        return
    if args.jobs is not None:
        raise InspectorError("--jobs is for --engine process; Spark's master sets how many executors share the "
                             "work (e.g. --spark-master 'local[4]')")
    if args.table is not None:
        raise InspectorError("--table names an SQLite table; with --engine spark the DATASET is the Parquet table "
                             "of messages, and --map names its columns")
    if args.samples or not getattr(args, "typed_paths", None):
        raise InspectorError("--engine spark reads a DATASET: give a directory, a glob or a URL")


def _request(args: argparse.Namespace) -> DatasetRequest:
    extra = tuple(load_tools_file(args.tools)) if args.tools else ()
    mapping = parse_map(args.map) if args.map is not None else None
    return DatasetRequest(tuple(args.typed_paths), ScanOptions(args.format, extra, args.session), mapping)


@contextmanager
def _spark_errors(shown: Path | str) -> Iterator[None]:
    """Spark's own errors (a path that does not exist, a file system it has no client for, a
    failed task) as one line naming the dataset: the first line of Spark's message (of the Java
    exception's, when Spark passes one on), or for a task that failed in Python the exception it
    raised (the last line of its traceback)."""
    from py4j.protocol import Py4JError, Py4JJavaError
    from pyspark.errors import PySparkException, PythonException

    try:
        yield
    except (PySparkException, Py4JError) as error:
        text = str(error.java_exception) if isinstance(error, Py4JJavaError) else str(error)
        lines = [line.strip() for line in text.splitlines() if line.strip()] or [type(error).__name__]
        raise InspectorError(f"{shown}: spark: {lines[-1] if isinstance(error, PythonException) else lines[0]}") from None


def _check_session(args: argparse.Namespace, sessions: int, request: DatasetRequest) -> None:
    check_session_found(args.session, range(sessions), [request.shown])


def _print_errors(errors: Sequence[str]) -> None:
    for error in errors:
        print(f"inspector: error: {one_line(error)}", file=sys.stderr)


def _totals_line(found: Totals, out: str) -> str:
    kinds = ", ".join(f"{kind} {count:,}" for kind, count in sorted(found.by_kind.items()))
    return (f"{found.sessions:,} sessions, {found.turns:,} turns, {sum(found.by_kind.values()):,} findings"
            f"{f' ({kinds})' if kinds else ''}; the findings and the rates are in {out.rstrip('/')}/")


def _exit_code(errors: Sequence[str], findings: int) -> int:
    if errors:
        return FAILED
    return FOUND if findings else FOUND_NOTHING
