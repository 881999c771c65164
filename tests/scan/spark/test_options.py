"""`scan --engine spark` before Spark starts: without PySpark it says in one line what to install;
options it does not take, or that need it, are one line too; the master it asks for; the script
`spark-submit` runs. None of this needs PySpark."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import inspector
from inspector.cli.main import main
from inspector.scan.spark.session import chosen_master


def _scan(capsys, *arguments: str) -> tuple[int, str, str]:
    code = main(["scan", *arguments])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_without_pyspark_the_spark_engine_says_what_to_install(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspark", None)  # `import pyspark` fails, as when it is not installed
    (tmp_path / "session.json").write_text('{"messages": [{"role": "user", "content": "hi"}]}')
    assert _scan(capsys, "--engine", "spark", "--json", str(tmp_path)) == (
        2,
        "",
        "inspector: error: --engine spark needs PySpark (and Java 17 or later): pip install 'inspector[spark]'\n",
    )


@pytest.mark.parametrize(
    ("options", "error"),
    [
        (["--spark-master", "local[2]"], "--spark-master needs --engine spark"),
        (
            ["--findings-out", "out", "--spark-master", "local[2]"],
            "--spark-master and --findings-out need --engine spark",
        ),
        (
            ["--engine", "spark", "--jobs", "2"],
            "--jobs is for --engine process; Spark's master sets how many executors "
            "share the work (e.g. --spark-master 'local[4]')",
        ),
        (
            ["--engine", "spark", "--table", "messages", "--map", "role=r,content=c"],
            "--table names an SQLite table; with --engine spark the DATASET is the Parquet table of messages, and --map "
            "names its columns",
        ),
    ],
)
def test_options_the_engine_does_not_take_are_one_line(tmp_path, capsys, options, error):
    assert _scan(capsys, *options, str(tmp_path)) == (2, "", f"inspector: error: {error}\n")


def test_the_spark_engine_needs_a_dataset(capsys):
    expected = (2, "", "inspector: error: --engine spark reads a DATASET: give a directory, a glob or a URL\n")
    assert _scan(capsys, "--engine", "spark") == expected
    assert _scan(capsys, "--engine", "spark", "--samples") == expected


def test_the_master_is_the_one_given_else_spark_submits_else_every_local_cpu():
    assert chosen_master("spark://head:7077", {"PYSPARK_GATEWAY_PORT": "41234"}) == "spark://head:7077"
    assert chosen_master(None, {"PYSPARK_GATEWAY_PORT": "41234"}) is None  # spark-submit's own --master holds
    assert chosen_master(None, {}) == "local[*]"


def test_the_script_spark_submit_runs_is_the_command_line():
    """`docs/spark.md`'s `spark-submit ... inspector/__main__.py scan ...`: the script, run as a file,
    takes `inspector`'s arguments."""
    script = Path(inspector.__file__).with_name("__main__.py")
    finished = subprocess.run(
        [sys.executable, str(script), "scan", "--engine", "spark", "--jobs", "2", "logs/"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (finished.returncode, finished.stdout) == (2, "")
    assert finished.stderr == (
        "inspector: error: --jobs is for --engine process; Spark's master sets how many "
        "executors share the work (e.g. --spark-master 'local[4]')\n"
    )
