"""The driver's side of a dataset scan: the dataset read as Spark lists it, the executors' results
brought back in the report's order, or written as tables (`warehouse.py`).

Session files are read with Spark's `binaryFile` source: a directory stands for the session files
directly inside it (as for a scan in one process), a glob or a URL for what Spark lists there;
audit logs and reviews are left out, and so are the files an agent keeps beside a session (a
subagent's metadata, a task's chat view), as in a local folder's scan. A Parquet table of messages
(`--map`) is grouped by its `session` column, each conversation's rows going to one executor.
Nothing is scanned until a result is asked for: the RDD of `Scanned` is lazy.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import partial, reduce
from operator import attrgetter, or_
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from inspector.errors import InspectorError
from inspector.scan.spark.executor import MessageTable, Scanned, ScanOptions, scan_conversations, scan_files
from inspector.scan.spark.warehouse import (
    FINDING_COLUMNS,
    FINDINGS,
    RATE_COLUMNS,
    RATES,
    finding_rows,
    rate_rows,
    schema,
)
from inspector.scan.summary import SessionSummary
from inspector.sources import NOT_SESSIONS, SESSION_SUFFIXES
from inspector.sources.companion_files import LISTS, companion_names
from inspector.sources.files.text_logs import TEXT_LOG_SUFFIXES
from inspector.sources.schemas.table import WHOLE_TABLE

if TYPE_CHECKING:  # annotations only: PySpark is imported when a scan starts
    from pyspark import RDD
    from pyspark.sql import SparkSession

# the files a folder scan looks at; a text file among them is read only when a format claims it
SESSION_GLOB = "*.{" + ",".join(suffix.lstrip(".") for suffix in SESSION_SUFFIXES + TEXT_LOG_SUFFIXES) + "}"


class DatasetRequest(NamedTuple):
    """What to scan: the datasets as given (paths, globs, URLs), how to read them, and for a
    Parquet table of messages the `--map` of its columns."""

    datasets: tuple[str, ...]
    options: ScanOptions = ScanOptions()
    mapping: dict[str, str] | None = None

    @property
    def shown(self) -> Path | str:
        """The datasets as a report names them: a local path as a path, a URL as given."""
        named = ", ".join(self.datasets)
        return named if "://" in named or len(self.datasets) > 1 else Path(named)


class Totals(NamedTuple):
    """What the executors found in all, for the line printed when no report is: files (or
    conversations) scanned, sessions, turns, findings by kind."""

    scanned: int
    sessions: int
    turns: int
    by_kind: Counter[str]


def scanned(spark: SparkSession, request: DatasetRequest) -> RDD:
    """Each file's (or conversation's) `Scanned`, computed on the executors when asked for."""
    if request.mapping is None:
        return _session_files(spark, request)
    return _message_table(spark, request)


def collected(results: RDD, request: DatasetRequest) -> tuple[list[SessionSummary], list[str]]:
    """Every summary in the report's order (by file path, then as in the file; by conversation
    for a table) and each error, brought back to the driver."""
    scans = sorted(results.collect(), key=attrgetter("order"))
    _check_found(len(scans), request)
    return [summary for scan in scans for summary in scan.summaries], [scan.error for scan in scans if scan.error]


def write_tables(spark: SparkSession, results: RDD, out: str) -> None:
    """Write the findings and the rates as Parquet tables in `out` (`warehouse.py`), refusing
    before anything is scanned when either exists."""
    places = {name: f"{out.rstrip('/')}/{name}" for name in (FINDINGS, RATES)}
    for place in places.values():
        if _exists(spark, place):
            raise InspectorError(f"{place}: exists already; nothing was written")
    spark.createDataFrame(results.flatMap(finding_rows), schema(FINDING_COLUMNS)).write.parquet(places[FINDINGS])
    spark.createDataFrame(results.flatMap(rate_rows), schema(RATE_COLUMNS)).write.parquet(places[RATES])


def totals(results: RDD, request: DatasetRequest) -> tuple[Totals, list[str]]:
    """What the executors found in all, and each error in the report's order."""
    found = results.map(_totals).fold(Totals(0, 0, 0, Counter()), _added)
    _check_found(found.scanned, request)
    errors = sorted(results.filter(attrgetter("error")).map(lambda scan: (scan.order, scan.error)).collect())
    return found, [error for _, error in errors]


def _session_files(spark: SparkSession, request: DatasetRequest) -> RDD:
    from pyspark.sql import functions

    frame = spark.read.format("binaryFile").option("pathGlobFilter", SESSION_GLOB).load(list(request.datasets))
    written_here = reduce(or_, [functions.col("path").endswith(ending) for ending in NOT_SESSIONS])
    listed = frame.where(~written_here)
    beside, lists = _companions(row.path for row in listed.select("path").collect())
    if beside:
        listed = listed.where(~functions.col("path").isin(sorted(beside)))
    files = listed.select("path", "content")
    return files.rdd.mapPartitions(partial(scan_files, options=request.options, lists=lists))


def _companions(paths: Iterable[str]) -> tuple[set[str], dict[str, frozenset[str]]]:
    """Of the files Spark lists (their URIs, read on the driver without their content): those an
    agent keeps beside a session of their folder, left out as a scan of a local folder leaves them
    out (`inspector.sources.companion_files`); and each list of sessions (Continue CLI's), with
    its folder's names, which the executor reading it leaves out when it names one of them."""
    folders: dict[str, set[str]] = {}
    for path in paths:
        folder, _, name = path.rpartition("/")
        folders.setdefault(folder, set()).add(name)
    beside = {f"{folder}/{name}" for folder, names in folders.items() for name in companion_names(names)}
    lists = {
        f"{folder}/{name}": frozenset(names) for folder, names in folders.items() for name in names if name in LISTS
    }
    return beside, lists


def _message_table(spark: SparkSession, request: DatasetRequest) -> RDD:
    from pyspark.sql import functions

    frame = spark.read.parquet(*request.datasets)
    mapping = request.mapping or {}
    missing = sorted(set(mapping.values()) - set(frame.columns))
    if missing:
        raise InspectorError(
            f"{request.shown}: the table has no column {', '.join(missing)} "
            f"(columns: {', '.join(sorted(frame.columns))})"
        )

    def column(key: str) -> Any:
        return frame[mapping[key]] if key in mapping else functions.lit(None).cast("string")

    only = request.options.only
    if only is not None:
        frame = frame.where(
            column("session").cast("string") == only if "session" in mapping else functions.lit(only == WHOLE_TABLE)
        )
    message = functions.struct(
        column("order").alias("order"),
        functions.monotonically_increasing_id().alias("row"),
        column("id").alias("id"),
        column("role").alias("role"),
        column("content").alias("content"),
    )
    conversations = (
        frame.select(column("session").alias("session"), message.alias("message"))
        .groupBy("session")
        .agg(functions.collect_list("message").alias("messages"))
    )
    table = MessageTable(request.shown, "session" in mapping)
    return conversations.rdd.mapPartitions(partial(scan_conversations, table=table, options=request.options))


def _check_found(count: int, request: DatasetRequest) -> None:
    """Fail when a dataset of session files holds none (a table with no rows has no conversation)."""
    if count == 0 and request.mapping is None:
        raise InspectorError(
            f"{request.shown}: no session files ({', '.join('*' + suffix for suffix in SESSION_SUFFIXES)}) there"
        )


def _totals(scan: Scanned) -> Totals:
    kinds = Counter(finding.kind for summary in scan.summaries for finding in summary.findings)
    return Totals(1, len(scan.summaries), sum(summary.turn_count for summary in scan.summaries), kinds)


def _added(one: Totals, other: Totals) -> Totals:
    return Totals(
        one.scanned + other.scanned, one.sessions + other.sessions, one.turns + other.turns, one.by_kind + other.by_kind
    )


def _exists(spark: SparkSession, place: str) -> bool:
    """Whether `place` exists, asked of the file system Spark writes to (local, HDFS, S3, ...)."""
    jvm = spark.sparkContext._jvm  # Hadoop's FileSystem has no Python API; PySpark reaches it this way
    assert jvm is not None  # (None only once the context is stopped)
    path = jvm.org.apache.hadoop.fs.Path(place)
    return path.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration()).exists(path)
