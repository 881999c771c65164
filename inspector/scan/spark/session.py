"""Starting (or joining) the Spark session a dataset scan runs on.

The master is `--spark-master URL` when given; else, under `spark-submit`, the one it was given
(`--master`, its `spark-defaults.conf`); else `local[*]`, every CPU of this machine. A local master
runs its Python workers with this interpreter (unless `PYSPARK_PYTHON` says otherwise), so they
import the same `inspector`, and binds to the loopback address (unless `SPARK_LOCAL_IP` says
otherwise); Spark logs only its fatal errors (a failed task reaches the scan as an exception,
reported in one line). A session already running in this process (a notebook's, a test's) is used
as it is and left running; one started here is stopped when the scan ends.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from inspector.errors import InspectorError

if TYPE_CHECKING:  # annotations only: PySpark is imported when a scan starts
    from pyspark.sql import SparkSession

INSTALL = "--engine spark needs PySpark (and Java 17 or later): pip install 'inspector[spark]'"
LOCAL = "local[*]"
LOG_SETTINGS = Path(__file__).with_name("log4j2.properties")  # Spark's log: errors only


def require_pyspark() -> None:
    """Fail with one line saying how to install PySpark when it is not installed."""
    try:
        import pyspark  # noqa: F401 - only whether it imports
    except ImportError:
        raise InspectorError(INSTALL) from None


def chosen_master(given: str | None, environ: Mapping[str, str]) -> str | None:
    """The master to ask for: the one given; else None under `spark-submit` (whose process has
    `PYSPARK_GATEWAY_PORT` set: its own master holds); else `local[*]`."""
    if given is not None:
        return given
    return None if "PYSPARK_GATEWAY_PORT" in environ else LOCAL


@contextmanager
def spark_session(master: str | None = None) -> Iterator[SparkSession]:
    """The Spark session to scan on (see the module's docstring), stopped on leaving if started here."""
    require_pyspark()
    from pyspark.sql import SparkSession

    running = SparkSession.getActiveSession()
    if running is not None:
        yield running
        return
    master = chosen_master(master, os.environ)
    if master is not None and master.startswith("local"):
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    builder = (
        SparkSession.builder.appName("inspector scan")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.extraJavaOptions", f"-Dlog4j2.configurationFile={LOG_SETTINGS.as_uri()}")
    )
    session = (builder.master(master) if master is not None else builder).getOrCreate()
    try:
        yield session
    finally:
        session.stop()
