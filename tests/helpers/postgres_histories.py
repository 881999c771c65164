"""Chat histories written into PostgreSQL the way their applications keep them there, for the
PostgreSQL tests and the benchmark: RubyLLM's Rails tables as a Rails app on PostgreSQL migrates
them (`bigserial` keys, `jsonb` arguments, `timestamp(6)`), LangChain's `message_store`, and
Open WebUI's `chat` table."""

from __future__ import annotations

import json
from datetime import timedelta

import psycopg

from tests.helpers.rubyllm import MODEL, SEED_000_CHATS, START

RUBYLLM_SCHEMA = """
CREATE TABLE chats (id bigserial PRIMARY KEY, model_id varchar, created_at timestamp(6) NOT NULL,
    updated_at timestamp(6) NOT NULL);
CREATE TABLE messages (id bigserial PRIMARY KEY, chat_id bigint NOT NULL REFERENCES chats (id),
    role varchar NOT NULL, content text, model_id varchar, input_tokens integer, output_tokens integer,
    tool_call_id bigint, created_at timestamp(6) NOT NULL, updated_at timestamp(6) NOT NULL);
CREATE TABLE tool_calls (id bigserial PRIMARY KEY, message_id bigint NOT NULL REFERENCES messages (id),
    tool_call_id varchar NOT NULL, name varchar NOT NULL, arguments jsonb DEFAULT '{}',
    created_at timestamp(6) NOT NULL, updated_at timestamp(6) NOT NULL);
ALTER TABLE messages ADD CONSTRAINT fk_rails_552873cb52 FOREIGN KEY (tool_call_id) REFERENCES tool_calls (id);
CREATE INDEX index_messages_on_chat_id ON messages (chat_id);
CREATE INDEX index_messages_on_tool_call_id ON messages (tool_call_id);
CREATE UNIQUE INDEX index_tool_calls_on_tool_call_id ON tool_calls (tool_call_id);
CREATE INDEX index_tool_calls_on_message_id ON tool_calls (message_id);
"""

# Seed 000's chats as they can be on PostgreSQL: `jsonb` refuses the malformed arguments of chat 2,
# so its call there is stored well formed.
POSTGRES_CHATS = [
    SEED_000_CHATS[0],
    [
        (
            role,
            content,
            [
                (call_id, name, '{"memory_type": "fact", "content": "Sister\'s birthday is 4 March."}')
                for call_id, name, _ in calls
            ]
            if role == "assistant" and calls
            else calls,
        )
        for role, content, calls in SEED_000_CHATS[1]
    ],
    *SEED_000_CHATS[2:],
]


def build_rubyllm_postgres(url: str, chats: list = POSTGRES_CHATS) -> str:
    """Write RubyLLM's tables holding `chats` into the database at `url`, linked as RubyLLM links
    them, with the same stamps as the SQLite builder; the URL."""
    with psycopg.connect(url) as conn:
        conn.execute(RUBYLLM_SCHEMA)
        clock = (START + timedelta(seconds=23 * tick) for tick in range(10**9))
        for chat in chats:
            stamp = next(clock)
            chat_id = conn.execute(
                "INSERT INTO chats (model_id, created_at, updated_at) VALUES (%s, %s, %s) RETURNING id",
                (MODEL, stamp, stamp),
            ).fetchone()[0]
            call_rows: dict[str, int] = {}
            for role, content, calls in chat:
                stamp = next(clock)
                answers = call_rows.get(calls) if role == "tool" else None
                message_id = conn.execute(
                    "INSERT INTO messages (chat_id, role, content, model_id, tool_call_id, created_at, updated_at) "
                    "VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING id",
                    (chat_id, role, content, MODEL if role == "assistant" else None, answers, stamp, stamp),
                ).fetchone()[0]
                for call_id, name, arguments in calls if role == "assistant" and calls else ():
                    call_rows[call_id] = conn.execute(
                        "INSERT INTO tool_calls (message_id, tool_call_id, name, arguments, created_at, updated_at) "
                        "VALUES (%s, %s, %s, %s, %s, %s) RETURNING id",
                        (message_id, call_id, name, arguments, stamp, stamp),
                    ).fetchone()[0]
    return url


def build_message_store_postgres(url: str, sessions: dict[str, list[dict]]) -> str:
    """LangChain's `message_store` as `SQLChatMessageHistory` creates it on PostgreSQL, holding
    each session's messages (`messages_to_dict` shape) in order; the URL."""
    with psycopg.connect(url) as conn:
        conn.execute("CREATE TABLE message_store (id SERIAL PRIMARY KEY, session_id TEXT, message TEXT)")
        for session_id, messages in sessions.items():
            for message in messages:
                conn.execute(
                    "INSERT INTO message_store (session_id, message) VALUES (%s, %s)", (session_id, json.dumps(message))
                )
    return url
