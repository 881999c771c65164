"""Tests of `inspector.review`: decisions, the review file, edits and export."""
