"""Chat histories kept in SQLite databases: one module per schema, and the writers."""
