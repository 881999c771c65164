"""The reports of a scan: readable text and JSON."""
