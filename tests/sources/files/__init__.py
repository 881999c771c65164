"""Tests of `inspector.sources.files`: reading and decoding session files."""
