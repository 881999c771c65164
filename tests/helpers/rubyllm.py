"""RubyLLM's Rails tables in SQLite, as a Rails app with `acts_as_chat` keeps them: the schema,
seed 000's chats (the bundled sample `rails-chat.rubyllm.db` is what `build_rubyllm` makes of them)
and reading a database back."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timedelta
from pathlib import Path

SCHEMA = """
CREATE TABLE chats (id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, model_id varchar,
    created_at datetime(6) NOT NULL, updated_at datetime(6) NOT NULL);
CREATE TABLE tool_calls (id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, message_id integer NOT NULL,
    tool_call_id varchar NOT NULL, name varchar NOT NULL, arguments json DEFAULT '{}',
    created_at datetime(6) NOT NULL, updated_at datetime(6) NOT NULL,
    CONSTRAINT fk_rails_9c8daee481 FOREIGN KEY (message_id) REFERENCES messages (id));
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, chat_id integer NOT NULL,
    role varchar NOT NULL, content text, model_id varchar, input_tokens integer, output_tokens integer,
    tool_call_id integer, created_at datetime(6) NOT NULL, updated_at datetime(6) NOT NULL,
    CONSTRAINT fk_rails_0f670de7ba FOREIGN KEY (chat_id) REFERENCES chats (id),
    CONSTRAINT fk_rails_552873cb52 FOREIGN KEY (tool_call_id) REFERENCES tool_calls (id));
CREATE INDEX index_messages_on_chat_id ON messages (chat_id);
CREATE INDEX index_messages_on_tool_call_id ON messages (tool_call_id);
CREATE UNIQUE INDEX index_tool_calls_on_tool_call_id ON tool_calls (tool_call_id);
CREATE INDEX index_tool_calls_on_message_id ON tool_calls (message_id);
"""
START = datetime(2026, 1, 23, 9, 14, 2)
MODEL = "gemini-2.5-flash"

# Each chat: a list of (role, content, calls) where calls are (call id, name, arguments JSON text)
# on an assistant message, or for a tool message the call id it answers.
SEED_000_CHATS = [
    [
        ("user", "Remember that I prefer morning runs.", None),
        (
            "assistant",
            "",
            [("call_mem_0", "save_memory", '{"memory_type": "core", "content": "Prefers morning runs."}')],
        ),
        ("tool", '{"success": true, "memory_type": "core", "content": "Prefers morning runs."}', "call_mem_0"),
        ("assistant", "Noted: mornings it is.", None),
        ("user", "I lost track of the week again. Can you journal that I feel scattered?", None),
        (
            "assistant",
            '{success: true, memory_type: "journal", content: "I lost track of the week and feel '
            'scattered."}You saw right through me. I have noted how scattered this week felt.',
            None,
        ),
        ("user", "Thanks. What is on my whiteboard?", None),
        ("assistant", "", [("call_wb_1", "whiteboard", '{"action": "get", "board_id": "week"}')]),
        ("tool", '{"board_id": "week", "content": "Dentist Tue; run Thu"}', "call_wb_1"),
        ("assistant", "Your board says: dentist on Tuesday and a run on Thursday.", None),
    ],
    [
        ("user", "Remember that my sister's birthday is on 4 March.", None),
        (
            "assistant",
            "",
            [("call_mem_1", "save_memory", '{"memory_type": "fact", "content": "Sister\'s birthday is 4 March."}}}')],
        ),
        ("tool", '{"success": true, "id": "mem_81"}', "call_mem_1"),
        ("assistant", "Saved: your sister's birthday is on 4 March.", None),
    ],
    [
        ("user", "Add 'book train to Leeds' to the board.", None),
        (
            "assistant",
            '<tool_call>\n{"name": "whiteboard", "arguments": {"action": "update", "board_id": "week", '
            '"content": "Book train to Leeds"}}\n</tool_call>\nDone, it is on the board.',
            None,
        ),
    ],
    [
        ("user", "How long should a tempo run be?", None),
        ("assistant", "Twenty to forty minutes at a comfortably hard pace is a good start.", None),
    ],
]


def build_rubyllm(path: Path, chats: list = SEED_000_CHATS) -> Path:
    """Write a RubyLLM database holding `chats`, linked the way RubyLLM links them."""
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA)
    clock = (f"{START + timedelta(seconds=23 * tick):%Y-%m-%d %H:%M:%S.%f}" for tick in range(10**9))
    for chat in chats:
        stamp = next(clock)
        chat_id = conn.execute(
            "INSERT INTO chats (model_id, created_at, updated_at) VALUES (?, ?, ?)", (MODEL, stamp, stamp)
        ).lastrowid
        call_rows: dict[str, int] = {}
        for role, content, calls in chat:
            stamp = next(clock)
            answers = call_rows.get(calls) if role == "tool" else None
            message_id = conn.execute(
                "INSERT INTO messages (chat_id, role, content, model_id, tool_call_id, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (chat_id, role, content, MODEL if role == "assistant" else None, answers, stamp, stamp),
            ).lastrowid
            for call_id, name, arguments in calls if role == "assistant" and calls else ():
                call_rows[call_id] = conn.execute(
                    "INSERT INTO tool_calls (message_id, tool_call_id, name, arguments, created_at, updated_at) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (message_id, call_id, name, arguments, stamp, stamp),
                ).lastrowid
    conn.commit()
    conn.close()
    return path


BOARD_MISSING = '{"error": "board week not found"}'
FAKE_JOURNAL_SAVE = '{success: true, memory_type: "journal", content: "Feels scattered."}You saw right through me.'


def board(call_id: str, error: str = BOARD_MISSING) -> list[tuple]:
    """A whiteboard call answered by an error."""
    return [
        ("assistant", "", [(call_id, "whiteboard", '{"action": "get", "board_id": "week"}')]),
        ("tool", error, call_id),
    ]


BOARD_CHATS = [  # conversations 1 to 4: tool-error 1, 2, 1, 0 times; result-prefix 1, 1, 0, 0 times
    [
        ("user", "What is on my board?", None),
        *board("c1"),
        ("assistant", "I could not find it.", None),
        ("user", "Journal that I feel scattered.", None),
        ("assistant", FAKE_JOURNAL_SAVE, None),
    ],
    [
        ("user", "Check my board twice.", None),
        *board("c2"),
        *board("c3", '{"error": "timed out"}'),
        ("assistant", "Both tries failed.", None),
        ("user", "Journal it then.", None),
        ("assistant", FAKE_JOURNAL_SAVE, None),
    ],
    [("user", "And the board now?", None), *board("c4"), ("assistant", "Still missing.", None)],
    [("user", "How long should a tempo run be?", None), ("assistant", "Twenty to forty minutes.", None)],
]

MISNAMED_ARGS = {"memory_type": "fact", "content": "Likes green tea."}
MISNAMED_CHAT = [  # a call of `save_memories`, which no tool is named: an `unknown-tool` finding
    ("user", "Remember that I like green tea.", None),
    ("assistant", "", [("call_tea", "save_memories", json.dumps(MISNAMED_ARGS))]),
    ("tool", '{"success": true}', "call_tea"),
    ("assistant", "Noted.", None),
]

MANY = SEED_000_CHATS + SEED_000_CHATS[2:] * 800  # 1,604 conversations: scanning takes far longer than listing


def dump_database(path: Path) -> list[str]:
    """Every statement that would rebuild the database at `path` (its schema and rows)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def messages_of(path: Path) -> list[tuple]:
    """The `messages` rows (id, chat, role, content, answered call) of a RubyLLM database, in order."""
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT id, chat_id, role, content, tool_call_id FROM messages ORDER BY id").fetchall()
