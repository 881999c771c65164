"""The command line: `inspector scan`, `inspector fix`, and opening the app."""
