"""Chat histories kept on a PostgreSQL server (`postgresql://` and `postgres://` URLs), read and
written with psycopg 3 (the optional `inspector[postgres]`): the schemas of
`inspector.sources.schemas` whose SQL PostgreSQL runs (`history.POSTGRESQL`), through this
backend's `Queries` and `Statements`; only the connection, placeholders, catalog queries and
locking are its own."""
