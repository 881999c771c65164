"""Tests of `inspector.sources.formats`: one module per file format, and the format contract."""
