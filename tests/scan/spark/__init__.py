"""Tests of `inspector.scan.spark`: a dataset scanned on Spark."""
