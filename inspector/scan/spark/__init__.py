"""Scanning a dataset on Spark: `inspector scan DATASET --engine spark`.

A dataset is a directory, a glob or a URL (`s3a://`, `hdfs://`, ...) of session files, listed and
read by Spark (`binaryFile`), or, with `--map`, a Parquet table of messages. The executors run the
project's own readers and detectors (they import `inspector`: nothing is reimplemented) and send
back the same summaries a scan in one process makes, so the reports are the same.

- `executor.py`: what runs on the executors (bytes or rows -> sessions -> findings -> summaries);
- `dataset.py`: the driver's side, reading a dataset as Spark lists it;
- `warehouse.py`: the findings and rates as Parquet rows (`--findings-out DIR`);
- `session.py`: starting (or joining) the Spark session.

Importing this package loads no PySpark: only `session.py` and `dataset.py` do, when called.
"""
