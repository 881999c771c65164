"""Tests of `inspector.tui.review`: the review screen and the objects it owns."""
