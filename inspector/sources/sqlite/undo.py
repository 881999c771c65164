"""`inspector undo` on an SQLite history: the shared undo (`inspector.sources.sql.undo`) in one
transaction holding the database's write lock, the database's own triggers refused unless
allowed (an authorizer, `triggers`)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from inspector.errors import InspectorError
from inspector.sources.sql.undo import Undone, undo
from inspector.sources.sqlite.database import check_header, connect, mapped_errors
from inspector.sources.sqlite.statements import SqliteStatements
from inspector.sources.sqlite.triggers import TriggerGuard
from inspector.support.safe_text import shown_name


def undo_in_file(
    path: Path, fix_id: int | None = None, since: str | None = None, allow_triggers: bool = False
) -> Undone:
    """`undo` in the SQLite database at `path`, in one transaction holding its write lock; the
    database's own triggers refused unless `allow_triggers` (`triggers`)."""
    check_header(path)
    conn = connect(path, read_only=False, trusted=allow_triggers)
    try:
        with mapped_errors(path, "undoing fixes"):
            conn.execute("BEGIN IMMEDIATE")
            triggers = TriggerGuard(conn, allow_triggers)
            try:
                done = undo(SqliteStatements(conn), fix_id, since)
            except InspectorError as error:
                raise InspectorError(f"{shown_name(path)}: {error}") from None
            except sqlite3.DatabaseError:
                if triggers.refused:
                    raise triggers.refusal(path, "this undo writes", "nothing was undone") from None
                raise
            conn.execute("COMMIT")
        return done
    finally:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        conn.close()
