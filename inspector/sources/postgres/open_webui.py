"""Open WebUI's `chat` table on PostgreSQL (its `chat` column `json`, read as text), read as in
SQLite by the same chat-to-session code."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from inspector.model import Session
from inspector.sources.location import HistoryLocation
from inspector.sources.postgres.rows import streamed
from inspector.sources.sqlite.database import json_or_none
from inspector.sources.sqlite.open_webui import NAME, chat_session, matches, shown_messages

if TYPE_CHECKING:
    import psycopg

__all__ = ["NAME", "conversations", "matches", "sessions"]


def conversations(conn: psycopg.Connection, source: HistoryLocation) -> Iterator[tuple[str, int]]:
    """Each chat's id and the number of messages on its shown branch."""
    for chat_id, document in streamed(conn, "SELECT id, chat::text FROM chat ORDER BY created_at, id", []):
        yield str(chat_id), len(shown_messages(json_or_none(document)))


def sessions(
    conn: psycopg.Connection, source: HistoryLocation, only: str | None = None, start: int = 0
) -> Iterator[Session]:
    """Each chat as a session (only the chat `only` when given), from the `start`th on."""
    where, params = ("WHERE id::text = %s", [only]) if only is not None else ("", [])
    for chat_id, document in streamed(
        conn, f"SELECT id, chat::text FROM chat {where} ORDER BY created_at, id OFFSET %s", [*params, start]
    ):
        yield chat_session(source, str(chat_id), json_or_none(document))
