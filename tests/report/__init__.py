"""Tests of `inspector.report`: rates, the HTML and Markdown reports, redaction."""
