"""Scanning: sessions from a source through the detectors, summarised for the reports."""
