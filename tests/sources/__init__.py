"""Tests of `inspector.sources`: storage read into sessions and written back."""
