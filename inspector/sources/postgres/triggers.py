"""The database's own triggers on the tables the inspector writes in a PostgreSQL database
(`fix`, `undo`), refused before anything is written unless allowed: a trigger could change the
rows written behind the audit's back, or cascade into others."""

from __future__ import annotations

from collections.abc import Sequence

from inspector.errors import InspectorError
from inspector.sources.postgres.statements import PostgresStatements
from inspector.sources.sql.statements import quote


def refuse_triggers(db: PostgresStatements, tables: Sequence[str], written: str) -> None:
    """Fail (one line, without the database's URL) naming the database's own triggers on `tables`,
    if any: they would run on the rows `written` ("this fix writes")."""
    found = list(
        db.execute(
            "SELECT t.tgname, c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
            "WHERE NOT t.tgisinternal AND t.tgrelid = ANY (SELECT to_regclass(name) FROM unnest(?::text[]) AS name) "
            "ORDER BY 1",
            [[quote(table) for table in tables]],
        )
    )
    if found:
        named = ", ".join(f"{name} (on {table})" for name, table in found)
        several = len(found) != 1
        raise InspectorError(
            f"the database's own trigger{'s' if several else ''} {named} would run on the rows "
            f"{written}, and could change them (--allow-triggers lets {'them' if several else 'it'} run)"
        )
