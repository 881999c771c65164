"""RubyLLM's tables read on PostgreSQL by the schema module SQLite uses: a chat in RubyLLM's order
(`created_at`, then id) however its rows were inserted, and each chat with its own calls even
when the server orders the chats' ids otherwise than by code point (a text id under a collation)."""

from __future__ import annotations

import sqlite3
from datetime import timedelta

import psycopg
import pytest

from inspector.sources import open_source
from tests.helpers.postgres_histories import POSTGRES_CHATS, build_rubyllm_postgres
from tests.helpers.rubyllm import START, build_rubyllm


def _turns(source, chat: str) -> list[tuple]:
    return [(turn.role, turn.text, [call.name for call in turn.tool_calls]) for turn in source.session(chat).turns]


def test_a_chat_is_read_in_created_order_as_in_sqlite(postgres_db, tmp_path):
    url = build_rubyllm_postgres(postgres_db)
    path = build_rubyllm(tmp_path / "app.db", POSTGRES_CHATS)
    as_built = _turns(open_source(url), "1")
    later = START + timedelta(days=1)  # the chat's first message, stamped after all the others
    with psycopg.connect(url) as conn:
        first = conn.execute("SELECT min(id) FROM messages WHERE chat_id = 1").fetchone()[0]
        conn.execute("UPDATE messages SET created_at = %s WHERE id = %s", [later, first])
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE messages SET created_at = ? WHERE id = ?", [str(later), first])
    on_server = _turns(open_source(url), "1")
    assert on_server == as_built[1:] + as_built[:1]
    assert on_server == _turns(open_source(path), "1")


def test_each_chat_keeps_its_calls_when_the_server_orders_its_ids_its_own_way(postgres_db):
    with psycopg.connect(postgres_db) as conn:
        if not conn.execute("SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu'").fetchone():
            pytest.skip("this PostgreSQL has no ICU collation")
        conn.execute(
            """CREATE TABLE messages (id bigserial PRIMARY KEY, chat_id text COLLATE "und-x-icu" NOT NULL,
                role text NOT NULL, content text, tool_call_id bigint, created_at timestamp NOT NULL);
            CREATE TABLE tool_calls (id bigserial PRIMARY KEY, message_id bigint NOT NULL,
                tool_call_id text NOT NULL, name text NOT NULL, arguments jsonb);"""
        )
        # `a` sorts before `B` here, after it by code point: chat `a` has no call, chat `B` one.
        for chat, call in (("a", None), ("B", "lookup")):
            conn.execute(
                "INSERT INTO messages (chat_id, role, content, created_at) VALUES (%s, 'user', 'Hi', %s)",
                [chat, START],
            )
            reply = conn.execute(
                "INSERT INTO messages (chat_id, role, content, created_at) VALUES (%s, 'assistant', '', %s) "
                "RETURNING id",
                [chat, START + timedelta(seconds=1)],
            ).fetchone()[0]
            if call:
                conn.execute(
                    "INSERT INTO tool_calls (message_id, tool_call_id, name, arguments) VALUES (%s, 'c1', %s, '{}')",
                    [reply, call],
                )
    source = open_source(postgres_db)
    assert [entry.session_id for entry in source.listing()] == ["a", "B"]
    assert _turns(source, "B") == [("user", "Hi", []), ("assistant", "", ["lookup"])]
    assert _turns(source, "a") == [("user", "Hi", []), ("assistant", "", [])]
    assert [len(session.turns[1].tool_calls) for session in source.sessions()] == [0, 1]
