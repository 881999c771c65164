"""Tests of `inspector.sources.sql`: the audit tables and undo."""
