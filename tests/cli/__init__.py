"""Tests of `inspector.cli`: the `scan` and `fix` commands and their errors."""
