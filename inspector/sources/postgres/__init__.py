"""Chat histories kept on a PostgreSQL server (`postgresql://` and `postgres://` URLs), read and
written with psycopg 3 (the optional `inspector[postgres]`): the SQLite schemas whose tables also
run on PostgreSQL, read through the same row-to-session code; only the connection, placeholders,
catalog queries and locking differ."""
