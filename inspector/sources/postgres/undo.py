"""`inspector undo` on a PostgreSQL database: the shared undo (`inspector.sources.sqlite.undo`) in
one transaction of its own, the rows it puts back locked (`FOR UPDATE`) as it checks them."""

from __future__ import annotations

from inspector.errors import InspectorError
from inspector.sources.postgres.connection import connect, mapped_errors
from inspector.sources.postgres.statements import PostgresStatements
from inspector.sources.postgres.url import ServerUrl
from inspector.sources.sqlite.undo import Undone, undo


def undo_on_server(url: ServerUrl, fix_id: int | None = None, since: str | None = None) -> Undone:
    """`undo` in the database at `url`, committed at once or not at all."""
    conn = connect(url, read_only=False)
    try:
        with mapped_errors(url, "undoing fixes"):
            try:
                done = undo(PostgresStatements(conn), fix_id, since)
            except InspectorError as error:
                raise InspectorError(f"{url}: {error}") from None
            conn.commit()
        return done
    finally:
        conn.rollback()
        conn.close()
