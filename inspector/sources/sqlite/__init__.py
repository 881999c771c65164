"""Chat histories kept in SQLite database files: every schema of `inspector.sources.schemas`
(`history.SQLITE`), read and written through this backend's `Queries` and `Statements`; opening a
file defensively, its write lock and backup, its triggers, and undo are its own."""
