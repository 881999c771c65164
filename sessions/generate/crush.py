#!/usr/bin/env python3
"""Build a Crush session database (`sessions/crush.db`) from Crush's storage code.

Usage:
    python3 sessions/generate/crush.py [OUT_DIR]

This sample is built from Crush's storage code, not written by the tool (its CLI is a Go binary
published as release downloads, which cannot be installed here):

- `internal/db/migrations/20250424200609_initial.sql` (charmbracelet/crush): the `sessions`,
  `files` and `messages` tables and their triggers as that migration makes them, with the columns
  later migrations add (`messages.provider`, `messages.is_summary_message`,
  `sessions.summary_message_id`) and the `goose_db_version` table its migrator keeps;
- `internal/message/message.go` (`marshallParts`): a message's `parts` is a JSON list of
  `{"type": "text" | "reasoning" | "tool_call" | "tool_result" | "finish" | ..., "data": {...}}`;
- `internal/message/content.go`: `tool_call` data `{id, name, input, provider_executed,
  finished}` (`input` the arguments as the model sent them, a string), `tool_result` data
  `{tool_call_id, name, content, data, mime_type, metadata, is_error}`, `finish` data `{reason,
  time}`; the model's results are kept in `tool` messages, the model and provider in the
  assistant's row.

The scenario (`scenario.py`): the fake result written as text, the printed `<tool_call>`
markup, a call whose arguments were cut (its input kept as sent, answered by an error), and a
good call of Crush's `view` tool reading notes.txt.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from scenario import FAKE_RESULT_REPLY, NOTES_TEXT, READING_TEXT, RETRY_TEXT, hermes_reply, user_turns  # noqa: E402

SCHEMA = """
CREATE TABLE goose_db_version (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    version_id INTEGER NOT NULL,
    is_applied INTEGER NOT NULL,
    tstamp TIMESTAMP DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    parent_session_id TEXT,
    title TEXT NOT NULL,
    message_count INTEGER NOT NULL DEFAULT 0 CHECK (message_count >= 0),
    prompt_tokens  INTEGER NOT NULL DEFAULT 0 CHECK (prompt_tokens >= 0),
    completion_tokens  INTEGER NOT NULL DEFAULT 0 CHECK (completion_tokens>= 0),
    cost REAL NOT NULL DEFAULT 0.0 CHECK (cost >= 0.0),
    updated_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    summary_message_id TEXT
);
CREATE TABLE IF NOT EXISTS files (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    path TEXT NOT NULL,
    content TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE,
    UNIQUE(path, session_id, version)
);
CREATE INDEX IF NOT EXISTS idx_files_session_id ON files (session_id);
CREATE INDEX IF NOT EXISTS idx_files_path ON files (path);
CREATE TABLE IF NOT EXISTS messages (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    role TEXT NOT NULL,
    parts BLOB NOT NULL default '[]',
    model TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    finished_at INTEGER,
    provider TEXT,
    is_summary_message INTEGER DEFAULT 0 NOT NULL,
    FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS idx_messages_session_id ON messages (session_id);
CREATE TRIGGER IF NOT EXISTS update_session_message_count_on_insert
AFTER INSERT ON messages
BEGIN
UPDATE sessions SET
    message_count = message_count + 1
WHERE id = new.session_id;
END;
CREATE TRIGGER IF NOT EXISTS update_session_message_count_on_delete
AFTER DELETE ON messages
BEGIN
UPDATE sessions SET
    message_count = message_count - 1
WHERE id = old.session_id;
END;
"""
SESSION_ID = "6f1c2a4e-8b7d-4f3a-9c1e-2d5b7a9e0c11"
WORK = "/tmp/crush-work"
TOOL = "view"
BROKEN_ID, GOOD_ID = "call_mock_broken_cut", "call_mock_good_read"
BROKEN_INPUT = '{"file_path": "/tmp/crush-work/notes.txt"'
START = 1767261600


def part(kind: str, **data: object) -> dict:
    return {"type": kind, "data": data}


def text(value: str) -> dict:
    return part("text", text=value)


def finish(reason: str, second: int) -> dict:
    return part("finish", reason=reason, time=START + second)


def call(call_id: str, arguments: str) -> dict:
    return part("tool_call", id=call_id, name=TOOL, input=arguments, provider_executed=False, finished=True)


def result(call_id: str, content: str, is_error: bool) -> dict:
    return part(
        "tool_result",
        tool_call_id=call_id,
        name=TOOL,
        content=content,
        data="",
        mime_type="",
        metadata="",
        is_error=is_error,
    )


def conversation() -> list[tuple[str, list[dict]]]:
    """The session's messages: (role, parts), in order."""
    memory, read, only_text = user_turns(f"Use the real {TOOL} tool on notes.txt.")
    numbered = "".join(f"{n:6d}|{line}\n" for n, line in enumerate(NOTES_TEXT.splitlines(), 1))
    good = json.dumps({"file_path": f"{WORK}/notes.txt"})
    return [
        ("user", [text(memory)]),
        ("assistant", [text(FAKE_RESULT_REPLY), finish("end_turn", 1)]),
        ("user", [text(read)]),
        ("assistant", [text(hermes_reply(TOOL, {"file_path": "notes.txt"})), finish("end_turn", 3)]),
        ("user", [text(only_text)]),
        ("assistant", [text(READING_TEXT), call(BROKEN_ID, BROKEN_INPUT), finish("tool_use", 5)]),
        ("tool", [result(BROKEN_ID, "invalid tool call input: unexpected end of JSON input", True)]),
        (
            "assistant",
            [
                part("reasoning", thinking="The arguments were cut; send them whole.", signature=""),
                text(RETRY_TEXT),
                call(GOOD_ID, good),
                finish("tool_use", 7),
            ],
        ),
        ("tool", [result(GOOD_ID, f"<file>\n{numbered}</file>\n", False)]),
        ("assistant", [text("The notes say the meeting moved to Thursday; bring the draft."), finish("end_turn", 9)]),
    ]


def build(path: Path) -> None:
    """Write the database at `path` (replacing one there)."""
    path.unlink(missing_ok=True)
    conn = sqlite3.connect(path)
    try:
        conn.executescript(SCHEMA)
        conn.executemany(
            "INSERT INTO goose_db_version (version_id, is_applied, tstamp) VALUES (?, 1, '2026-01-01 10:00:00')",
            [(0,), (20250424200609,)],
        )
        conn.execute(
            "INSERT INTO sessions (id, title, prompt_tokens, completion_tokens, cost, updated_at, created_at) "
            "VALUES (?, 'Notes and journal', 1200, 240, 0.0, ?, ?)",
            [SESSION_ID, START + 9, START],
        )
        for second, (role, parts) in enumerate(conversation()):
            assistant = role == "assistant"
            conn.execute(
                "INSERT INTO messages (id, session_id, role, parts, model, created_at, updated_at, finished_at, "
                "provider) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    f"6f1c2a4e-0000-4000-8000-{second:012d}",
                    SESSION_ID,
                    role,
                    json.dumps(parts, separators=(",", ":")),
                    "mock-model" if assistant else None,
                    START + second,
                    START + second,
                    START + second if assistant else None,
                    "mock" if assistant else None,
                ],
            )
        conn.commit()
        conn.execute("VACUUM")
    finally:
        conn.close()


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1]
    build(out / "crush.db")


if __name__ == "__main__":
    main()
