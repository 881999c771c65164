"""The options that choose where `inspector scan` runs (`--engine process|spark`, `--spark-master`,
`--findings-out`) and how its paths are kept, apart from the Spark scan itself
(`inspector.cli.spark_scan`) so that building the command line's parser loads none of Spark's modules.

A DATASET is a directory, a glob or a URL (`s3a://bucket/logs/`, `hdfs:///logs/`) as Spark reads
it, so the command line keeps each path as it was typed (`PathsAsTyped`): a `Path` would fold the
`//` of a URL.
"""

from __future__ import annotations

import argparse

from inspector.cli.suggest import choices_shown, one_of
from inspector.errors import InspectorError
from inspector.sources import location

SPARK, PROCESS = "spark", "process"


class PathsAsTyped(argparse.Action):
    """Store the paths as `Path`s or server URLs (`paths`) and as typed (`typed_paths`, for Spark's URLs)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        typed = list(values) if isinstance(values, list) else []
        namespace.paths, namespace.typed_paths = [location(value) for value in typed], typed


def add_engine_options(parser: argparse.ArgumentParser) -> None:
    """`--engine`, `--spark-master` and `--findings-out` on `scan`."""
    parser.add_argument(
        "--engine",
        type=one_of((PROCESS, SPARK), "engine"),
        metavar=choices_shown((PROCESS, SPARK)),
        default=PROCESS,
        help="process: this process (and --jobs workers for many files or a large SQLite history); spark: Spark's "
        "executors, on a DATASET: a directory, glob or URL of session files, or with --map a "
        "Parquet table of messages (needs inspector[spark])",
    )
    parser.add_argument(
        "--spark-master", metavar="URL", help="the Spark master (default: spark-submit's, else local[*])"
    )
    parser.add_argument(
        "--findings-out",
        metavar="DIR",
        help="with --engine spark: write the findings and the rates "
        "as Parquet tables DIR/findings and DIR/rates, and print one line of totals",
    )


def check_engine_options(args: argparse.Namespace) -> None:
    """Fail with one line on options that need `--engine spark`, or that it does not take."""
    if args.engine != SPARK:
        given = [
            option
            for option, value in (("--spark-master", args.spark_master), ("--findings-out", args.findings_out))
            if value is not None
        ]
        if given:
            raise InspectorError(f"{' and '.join(given)} {'needs' if len(given) == 1 else 'need'} --engine spark")
        return
    if args.jobs is not None:
        raise InspectorError(
            "--jobs is for --engine process; Spark's master sets how many executors share the "
            "work (e.g. --spark-master 'local[4]')"
        )
    if args.table is not None:
        raise InspectorError(
            "--table names an SQLite table; with --engine spark the DATASET is the Parquet table "
            "of messages, and --map names its columns"
        )
    if args.samples or not getattr(args, "typed_paths", None):
        raise InspectorError("--engine spark reads a DATASET: give a directory, a glob or a URL")
