"""Tests of `inspector.repair`: applying fixes and running recovered calls."""
