"""The reports of a scan: text and JSON, and the HTML and Markdown reports to share."""
