"""Tests of `inspector.view`: a repaired turn as shown, and the diffs."""
