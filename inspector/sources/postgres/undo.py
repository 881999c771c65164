"""`inspector undo` on a PostgreSQL database: the shared undo (`inspector.sources.sql.undo`) in
one transaction of its own, the rows it puts back locked (`FOR UPDATE`) as it checks them. As
`fix`, it refuses the database's own triggers on the tables it writes unless allowed."""

from __future__ import annotations

from collections.abc import Sequence

from inspector.errors import InspectorError
from inspector.model import ServerUrl
from inspector.sources.postgres.connection import connect, mapped_errors
from inspector.sources.postgres.statements import PostgresStatements
from inspector.sources.postgres.triggers import refuse_triggers
from inspector.sources.sql.undo import Undone, undo
from inspector.support.safe_text import shown_name


def undo_on_server(
    url: ServerUrl, fix_id: int | None = None, since: str | None = None, allow_triggers: bool = False
) -> Undone:
    """`undo` in the database at `url`, committed at once or not at all; refused when the
    database's own triggers watch a table it writes, unless `allow_triggers`."""
    conn = connect(url, read_only=False)
    try:
        with mapped_errors(url, "undoing fixes"):
            db = PostgresStatements(conn)
            check = None if allow_triggers else lambda tables: _refuse(db, tables)
            try:
                done = undo(db, fix_id, since, check)
            except InspectorError as error:
                raise InspectorError(f"{shown_name(url)}: {error}") from None
            conn.commit()
        return done
    finally:
        conn.rollback()
        conn.close()


def _refuse(db: PostgresStatements, tables: Sequence[str]) -> None:
    """Refuse the database's own triggers on `tables`, in undo's words."""
    try:
        refuse_triggers(db, tables, "this undo writes")
    except InspectorError as error:
        raise InspectorError(f"{error}; nothing was undone") from None
