"""`inspector scan [PATH ...]`: report the suspect turns of session files, directories of them or
histories (the person's own sessions when no path is given), as text, JSON or a CI format; or,
with `--unknowns`, the record types and keys the readers do not know."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from inspector.cli.baseline_scan import add_baseline_options
from inspector.cli.commands import summary
from inspector.cli.engine_options import SPARK, add_engine_options, check_engine_options
from inspector.cli.error_line import say_error
from inspector.cli.exit_codes import FOUND_NOTHING, epilog
from inspector.cli.output_formats import FOR_CI, JSON, add_output_options, chosen_output, write_for_ci
from inspector.cli.session_reading import add_scan_options, exit_code, reading, summaries
from inspector.cli.subagent_hint import subagent_hints
from inspector.errors import InspectorError
from inspector.report.json_report import build_report, encode_json
from inspector.report.text_report import render_report


def add_command(commands: argparse._SubParsersAction[Any]) -> None:
    """Add `scan` to the command line's `commands`."""
    scan = commands.add_parser("scan", help=summary("scan"), epilog=epilog("scan"))
    add_scan_options(scan)
    add_output_options(scan)
    scan.add_argument(
        "--unknowns",
        action="store_true",
        help="instead of findings, list the record types and keys the readers do not know, by format "
        "and the version that wrote them (exit 1 when there are any)",
    )
    add_baseline_options(scan)
    add_engine_options(scan)
    scan.set_defaults(run=_scan)


def _scan(args: argparse.Namespace) -> int:
    check_engine_options(args)
    output = chosen_output(args)
    args.json = output == JSON  # what the Spark scan and the baseline read
    if output in FOR_CI and (args.unknowns or args.engine == SPARK):
        raise InspectorError(
            f"--output-format {output} reports findings of the local engine: not with --unknowns or --engine spark"
        )
    if args.unknowns:
        from inspector.cli.unknowns_command import run_unknowns  # only this report surveys the files

        if args.engine == SPARK:
            raise InspectorError("--unknowns runs on the local engine, not --engine spark")
        return run_unknowns(reading(args).files, args.format, output == JSON, say_error)
    if args.engine == SPARK:
        from inspector.cli.spark_scan import run_spark_scan  # only a Spark scan loads Spark's modules

        return run_spark_scan(args)
    read = reading(args)
    found, errors = summaries(args, read) if read.files else ([], [])
    if output == JSON:
        sys.stdout.write(encode_json(build_report(found, errors)) + "\n")
    elif output in FOR_CI:
        write_for_ci(output, found, errors)
    elif not read.files:
        return FOUND_NOTHING
    elif found or not errors:  # an empty history says so: 0 sessions
        sys.stdout.write(render_report(found))
        sys.stdout.flush()  # (each hint follows the report)
        for hint in subagent_hints(args.paths or [], read.files, found):
            print(hint, file=sys.stderr)
    return exit_code(found, errors)
