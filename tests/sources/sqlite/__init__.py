"""Tests of `inspector.sources.sqlite`: reading and writing SQLite histories."""
