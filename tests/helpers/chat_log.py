"""A home-grown app's chat history in SQLite, of no known schema: the `chat_log` table, read with
`--table chat_log --map ...`, and the conversations the tests put in it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from inspector.sources.schemas.table import parse_map
from inspector.tui.conversations import ReadOptions

MAP = "role=speaker,content=body,id=msg_id,session=thread,order=seq"
CHAT_LOG = ReadOptions("chat_log", parse_map(MAP))
JOURNAL = [
    ("human", "I lost track of the week again. Journal that I feel scattered."),
    (
        "ai",
        '{success: true, memory_type: "journal", content: "Feels scattered this week."}'
        "You saw right through me. I noted how scattered this week felt.",
    ),
]
LEEDS = [
    ("human", "Add 'book train to Leeds' to my list."),
    ("ai", '{success: true, list: "todo", item: "Book train to Leeds"}Done, it is on your list.'),
]
TEMPO = [
    ("human", "How long should a tempo run be?"),
    ("ai", "Twenty to forty minutes at a comfortably hard pace is a good start."),
]


def build_chat_log(path: Path, threads: dict[str, list[tuple[str, str]]]) -> Path:
    """Add `threads` (thread id -> (speaker, body) messages) to the `chat_log` table of the
    database at `path`, creating both when needed: a home-grown app's history, no known schema."""
    with sqlite3.connect(path) as conn:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS chat_log (msg_id INTEGER PRIMARY KEY, thread TEXT NOT NULL, "
            "speaker TEXT NOT NULL, body TEXT, seq INTEGER NOT NULL)"
        )
        conn.executemany(
            "INSERT INTO chat_log (thread, speaker, body, seq) VALUES (?, ?, ?, ?)",
            [
                (thread, speaker, body, seq)
                for thread, messages in threads.items()
                for seq, (speaker, body) in enumerate(messages)
            ],
        )
    conn.close()
    return path


def bodies(path: Path) -> list[tuple]:
    """The `chat_log` rows (id, thread, speaker, body), in order."""
    with sqlite3.connect(path) as conn:
        found = conn.execute("SELECT msg_id, thread, speaker, body FROM chat_log ORDER BY msg_id").fetchall()
    conn.close()
    return found
