"""What chat histories in SQL databases share, whatever the database (SQLite, PostgreSQL): the
interfaces a schema reads and writes through (`statements`), reading rows conversation by
conversation (`rows`), the audit tables every write-back fills (`audit_table`), the rows a write
changed with their images before and after (`row_changes`), and reverting them (`undo`)."""
