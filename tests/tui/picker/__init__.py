"""Tests of `inspector.tui.picker`: launching the app and the list of sessions."""
