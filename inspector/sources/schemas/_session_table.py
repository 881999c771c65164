"""What the agents' own databases (OpenCode, Goose, Crush) share: a table of sessions and a table
of their messages keyed by `session_id`, listed as conversations in the sessions' order. Used by
`opencode.py`, `goose.py` and `crush.py`."""

from __future__ import annotations

from collections.abc import Iterator

from inspector.sources.sql.statements import Queries


def counted_sessions(db: Queries, sessions: str, messages: str, order: str) -> Iterator[tuple[str, int]]:
    """Each session's id and its message count, counted by the database, in `order` (columns of
    the sessions table)."""
    for session_id, count in db.rows(
        f"SELECT s.id, (SELECT count(*) FROM {messages} m WHERE m.session_id = s.id) FROM {sessions} s "
        f"ORDER BY {', '.join(f's.{column}' for column in order.split(', '))}"
    ):
        yield str(session_id), count


def session_ids(db: Queries, sessions: str, order: str, only: str | None, start: int) -> list[str]:
    """The ids of the sessions in `order` (only the session `only` when given), from the `start`th on."""
    where, params = ("WHERE id = ?", [only]) if only is not None else ("", [])
    rows = db.rows(f"SELECT id FROM {sessions} {where} ORDER BY {order} {db.offset}", [*params, start])
    return [str(session_id) for (session_id,) in rows]
