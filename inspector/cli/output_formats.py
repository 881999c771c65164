"""`scan`'s outputs: the text report (the default), `--json` (the machine format, schema 1), and
the formats CI systems read (`--output-format github|sarif|junit`), each written to the standard
output. `--json` is `--output-format json`; the two can be given together only when they agree."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from inspector.errors import InspectorError
from inspector.scan.summary import SessionSummary

TEXT, JSON = "text", "json"
FOR_CI = ("github", "sarif", "junit")  # GitHub Actions annotations, a SARIF 2.1.0 log, a JUnit XML report


def add_output_options(scan: argparse.ArgumentParser) -> None:
    """Add `--json` and `--output-format` to `scan`."""
    scan.add_argument("--json", action="store_true", help="print the machine-readable report (schema 1)")
    scan.add_argument(
        "--output-format",
        choices=(TEXT, JSON, *FOR_CI),
        metavar="FORMAT",
        help="text (the default), json (as --json), github (annotations in a GitHub Actions run), "
        "sarif (a SARIF 2.1.0 log for code scanning) or junit (a JUnit XML report)",
    )


def chosen_output(args: argparse.Namespace) -> str:
    """The output `scan` writes; `--json` with another `--output-format` is an error."""
    named = args.output_format or (JSON if args.json else TEXT)
    if args.json and named != JSON:
        raise InspectorError(f"--json and --output-format {named} ask for two outputs: give one")
    return str(named)


def write_for_ci(output: str, summaries: Sequence[SessionSummary], errors: Sequence[str]) -> None:
    """Write the scan in one of the formats of `FOR_CI`."""
    if output == "sarif":
        from inspector.report.json_report import encode_json
        from inspector.report.sarif_report import build_sarif

        sys.stdout.write(encode_json(build_sarif(summaries, errors)) + "\n")
    elif output == "github":
        from inspector.report.github_annotations import render_github

        sys.stdout.write(render_github(summaries, errors))
    else:
        from inspector.report.junit_report import render_junit

        sys.stdout.write(render_junit(summaries, errors))
