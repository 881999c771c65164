"""Tests of `inspector.sources.postgres`: chat histories on a real PostgreSQL server."""
