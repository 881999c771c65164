"""Tests of `inspector.tui.dialogs`: the app's modal dialogs."""
