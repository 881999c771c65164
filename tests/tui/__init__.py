"""Tests of `inspector.tui`: the app driven with Textual's Pilot."""
