"""The rows one conversation's write may change, schema by schema: what the audit images before
and after the write (`row_changes`), and what PostgreSQL locks. Each is `(table, where, params)`,
`where` with `?` placeholders, on SQLite and PostgreSQL alike. Schemas written by updating rows
of plain text (`--table`, Elia) change only the rows of the edited turns; `llm` writes a fork (new
rows, the original untouched) and has no scope: its fixes cannot be undone."""

from __future__ import annotations

from typing import Any

from inspector.model import Session
from inspector.sources.location import HistoryLocation
from inspector.sources.sqlite.database import quote
from inspector.sources.sqlite.statements import Statements

Scope = list[tuple[str, str, list[Any]]]


def conversation_rows(db: Statements, session: Session) -> Scope | None:
    """The rows the write of `session` may change, or None when they cannot be named."""
    location: HistoryLocation = session.document
    key = session.session_id
    if location.format == "rubyllm":
        return [
            ("messages", "chat_id = ?", [key]),
            ("tool_calls", "message_id IN (SELECT id FROM messages WHERE chat_id = ?)", [key]),
        ]
    if location.format == "langchain-sql":
        return [("message_store", "session_id = ?", [key])]
    if location.format == "agents-sdk":
        return [("agent_messages", "session_id = ?", [key]), ("agent_sessions", "session_id = ?", [key])]
    if location.format == "open-webui":
        mirror = [("chat_message", "chat_id = ?", [key])] if db.has_table("chat_message") else []
        return [("chat", "id = ?", [key]), *mirror]
    if location.format == "llm-legacy":
        responses = "response_id IN (SELECT id FROM responses WHERE conversation_id = ?)"
        results = [("tool_results", responses, [key])] if db.has_table("tool_results") else []
        calls = [("tool_calls", responses, [key])] if db.has_table("tool_calls") else []
        return [("responses", "conversation_id = ?", [key]), *calls, *results]
    if location.table is not None:  # a table named with --table/--map, or Elia's
        edited = sorted({turn.raw["id"] for turn in session.turns if turn.edited and turn.raw is not None})
        column = quote(location.mapping.get("id", "rowid"))
        return [(location.table, f"{column} IN ({', '.join('?' * len(edited))})", edited)] if edited else []
    return None
