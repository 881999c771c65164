"""`inspector scan DATASET --engine spark`: the scan of a dataset on Spark's executors
(`inspector.scan.spark`), reported as a scan in one process reports (text, or `--json`), or written
as Parquet tables for a warehouse (`--findings-out DIR`: then one line of totals is printed).

Its options and the paths as typed are in `inspector.cli.engine_options`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from inspector.cli.exit_codes import FAILED, FOUND, FOUND_NOTHING
from inspector.errors import InspectorError, check_session_found
from inspector.report.json_report import build_report, encode_json
from inspector.report.text_report import render_report
from inspector.scan.spark.dataset import DatasetRequest, Totals, collected, scanned, totals, write_tables
from inspector.scan.spark.executor import ScanOptions
from inspector.scan.spark.session import spark_session
from inspector.sources.schemas.table import parse_map
from inspector.support.counted_words import counted
from inspector.support.safe_text import one_line, shown_name
from inspector.support.tools_file import load_tools_file


def run_spark_scan(args: argparse.Namespace) -> int:
    """Scan the datasets on Spark and report; the exit code as `scan`'s (the options checked
    first by `engine_options.check_engine_options`)."""
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
        raise InspectorError(
            f"{shown}: spark: {lines[-1] if isinstance(error, PythonException) else lines[0]}"
        ) from None


def _check_session(args: argparse.Namespace, sessions: int, request: DatasetRequest) -> None:
    check_session_found(args.session, range(sessions), [request.shown])


def _print_errors(errors: Sequence[str]) -> None:
    for error in errors:
        print(f"inspector: error: {one_line(error)}", file=sys.stderr)


def _totals_line(found: Totals, out: str) -> str:
    kinds = ", ".join(f"{kind} {count:,}" for kind, count in sorted(found.by_kind.items()))
    return (
        f"{counted(found.sessions, 'session', 'sessions')}, {counted(found.turns, 'turn', 'turns')}, "
        f"{counted(sum(found.by_kind.values()), 'finding', 'findings')}"
        f"{f' ({kinds})' if kinds else ''}; the findings and the rates are in {shown_name(out.rstrip('/'))}/"
    )


def _exit_code(errors: Sequence[str], findings: int) -> int:
    if errors:
        return FAILED
    return FOUND if findings else FOUND_NOTHING
