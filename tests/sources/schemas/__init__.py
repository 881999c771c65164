"""Tests of `inspector.sources.schemas`: one module per SQL schema, on SQLite databases."""
