"""RubyLLM's Rails tables on PostgreSQL (`messages`, `tool_calls`, as `inspector.sources.sqlite.rubyllm`
reads them in SQLite), through the same row-to-session code.

One query streams every message joined with its calls, ordered by chat, then as RubyLLM orders a
chat (`created_at`, then id): a message owning two calls comes twice, and is split back into the
message rows and the call rows the shared code takes, one chat at a time. `arguments` (`jsonb`
in a Rails app on PostgreSQL) is read as text.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import groupby
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from inspector.model import Session
from inspector.sources.location import HistoryLocation
from inspector.sources.postgres.rows import matching, streamed
from inspector.sources.sqlite.rubyllm import NAME, chat_session, matches

if TYPE_CHECKING:
    import psycopg

__all__ = ["NAME", "conversations", "matches", "sessions"]
KEYS = "SELECT chat_id FROM messages GROUP BY 1 ORDER BY 1"


def conversations(conn: psycopg.Connection, source: HistoryLocation) -> Iterator[tuple[str, int]]:
    """Each chat's id and message count, counted by the server."""
    for chat_id, number in streamed(conn, "SELECT chat_id, count(*) FROM messages GROUP BY 1 ORDER BY 1", []):
        yield str(chat_id), number


def sessions(
    conn: psycopg.Connection, source: HistoryLocation, only: str | None = None, start: int = 0
) -> Iterator[Session]:
    """Each chat as a session (only the chat `only` when given), from the `start`th on."""
    columns = _columns(conn)
    model = "m.model_id" if "model_id" in columns else "NULL"
    created = "m.created_at" if "created_at" in columns else "NULL::text"
    where, params = matching("m.chat_id", only, start, KEYS)
    sql = (
        f"SELECT m.id, m.chat_id, m.role, m.content, m.tool_call_id, {model}, {created}, "
        "tc.id, tc.message_id, tc.tool_call_id, tc.name, tc.arguments::text "
        f"FROM messages m LEFT JOIN tool_calls tc ON tc.message_id = m.id {where} "
        f"ORDER BY m.chat_id, {created} NULLS FIRST, m.id, tc.id"
    )
    for chat_id, joined in groupby(streamed(conn, sql, params), key=itemgetter(1)):
        rows, call_rows = _split(joined)
        yield chat_session(source, str(chat_id), rows, call_rows)


def _split(joined: Iterator[tuple]) -> tuple[list[tuple], list[tuple]]:
    """The message rows and the call rows (`id, message_id, tool_call_id, name, arguments,
    chat_id`) of one chat's joined rows."""
    rows: list[tuple] = []
    call_rows: list[tuple] = []
    last: Any = object()
    for row in joined:
        if row[0] != last:
            rows.append(row[:7])
            last = row[0]
        if row[7] is not None:
            call_rows.append((*row[7:], row[1]))
    return rows, call_rows


def _columns(conn: psycopg.Connection) -> set[str]:
    return {
        name
        for (name,) in conn.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'messages' "
            "AND table_schema = ANY (current_schemas(false))"
        )
    }
