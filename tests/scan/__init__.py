"""Tests of `inspector.scan`: early findings, summaries, scanning on several processes."""
