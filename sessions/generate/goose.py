#!/usr/bin/env python3
"""Build a Goose session database (`sessions/goose.db`) from Goose's storage code.

Usage:
    python3 sessions/generate/goose.py [OUT_DIR]

Goose's CLI is a Rust binary published only as GitHub release downloads, which cannot be
installed here, so this sample is built from its storage code, not written by the tool:

- `crates/goose/src/session/session_manager.rs` (block/goose, schema version 5): the
  `schema_version`, `sessions` and `messages` tables and their indexes exactly as
  `SessionStorage::create` makes them; a session id `YYYYMMDD_N`; each message inserted as
  `add_message` does (`session_id, role, content_json, created_timestamp, metadata_json`);
- `crates/goose/src/conversation/message.rs` and `tool_result_serde.rs`: a message's content
  is a list of `{"type": "text" | "toolRequest" | "toolResponse" | "thinking", ...}`; a
  `toolCall` / `toolResult` is `{"status": "success", "value": ...}` or
  `{"status": "error", "error": "<code>: <message>"}`; a result's value is a `CallToolResult`
  (`{"content": [...], "isError": false}`);
- `crates/goose/src/providers/formats/openai.rs`: a call whose arguments are not JSON is stored
  as a `toolCall` with the error status ("Could not interpret tool use parameters for id ..."),
  and the agent answers it with a `toolResponse` carrying the same error.

The scenario (`scenario.py`): the fake result written as text, the printed `<tool_call>`
markup, a call whose arguments were cut (stored as an error), and a good call of Goose's
`developer__text_editor` reading notes.txt.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from scenario import FAKE_RESULT_REPLY, NOTES_TEXT, READING_TEXT, RETRY_TEXT, hermes_reply, user_turns  # noqa: E402

SCHEMA = """
CREATE TABLE schema_version (
    version INTEGER PRIMARY KEY,
    applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP
);
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    user_set_name BOOLEAN DEFAULT FALSE,
    session_type TEXT NOT NULL DEFAULT 'user',
    working_dir TEXT NOT NULL,
    created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    extension_data TEXT DEFAULT '{}',
    total_tokens INTEGER,
    input_tokens INTEGER,
    output_tokens INTEGER,
    accumulated_total_tokens INTEGER,
    accumulated_input_tokens INTEGER,
    accumulated_output_tokens INTEGER,
    schedule_id TEXT,
    recipe_json TEXT,
    user_recipe_values_json TEXT
);
CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    role TEXT NOT NULL,
    content_json TEXT NOT NULL,
    created_timestamp INTEGER NOT NULL,
    timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    tokens INTEGER,
    metadata_json TEXT
);
CREATE INDEX idx_messages_session ON messages(session_id);
CREATE INDEX idx_messages_timestamp ON messages(timestamp);
CREATE INDEX idx_sessions_updated ON sessions(updated_at DESC);
CREATE INDEX idx_sessions_type ON sessions(session_type);
"""
SESSION_ID = "20260101_1"
WORK = "/tmp/goose-work"
TOOL = "developer__text_editor"
BROKEN_ID, GOOD_ID = "call_mock_broken_cut", "call_mock_good_read"
METADATA = json.dumps({"userVisible": True, "agentVisible": True}, separators=(",", ":"))


def text(value: str) -> dict:
    return {"type": "text", "text": value}


def request(call_id: str, call: dict) -> dict:
    return {"type": "toolRequest", "id": call_id, "toolCall": call}


def response(call_id: str, result: dict) -> dict:
    return {"type": "toolResponse", "id": call_id, "toolResult": result}


def conversation() -> list[tuple[str, list[dict]]]:
    """The session's messages: (role, content), in order."""
    memory, read, only_text = user_turns(f"Use the real {TOOL} tool on notes.txt.")
    cut = f"-32602: Could not interpret tool use parameters for id {BROKEN_ID}: EOF while parsing an object at line 1 column 48"
    numbered = "".join(f"{n}: {line}\n" for n, line in enumerate(NOTES_TEXT.splitlines(), 1))
    good = {"name": TOOL, "arguments": {"command": "view", "path": f"{WORK}/notes.txt"}}
    return [
        ("user", [text(memory)]),
        ("assistant", [text(FAKE_RESULT_REPLY)]),
        ("user", [text(read)]),
        ("assistant", [text(hermes_reply(TOOL, {"command": "view", "path": "notes.txt"}))]),
        ("user", [text(only_text)]),
        ("assistant", [text(READING_TEXT), request(BROKEN_ID, {"status": "error", "error": cut})]),
        ("user", [response(BROKEN_ID, {"status": "error", "error": cut})]),
        (
            "assistant",
            [
                {"type": "thinking", "thinking": "The arguments were cut; send them whole.", "signature": ""},
                text(RETRY_TEXT),
                request(GOOD_ID, {"status": "success", "value": good}),
            ],
        ),
        ("user", [response(GOOD_ID, {"status": "success", "value": {"content": [text(numbered)], "isError": False}})]),
        ("assistant", [text("The notes say the meeting moved to Thursday; bring the draft.")]),
    ]


def build(path: Path) -> None:
    """Write the database at `path` (replacing one there)."""
    path.unlink(missing_ok=True)
    conn = sqlite3.connect(path)
    try:
        conn.executescript(SCHEMA)
        conn.execute("INSERT INTO schema_version (version, applied_at) VALUES (5, '2026-01-01 10:00:00')")
        conn.execute(
            "INSERT INTO sessions (id, name, user_set_name, session_type, working_dir, created_at, updated_at, "
            "extension_data) VALUES (?, 'Notes and journal', FALSE, 'user', ?, '2026-01-01 10:00:00', "
            "'2026-01-01 10:00:20', '{}')",
            [SESSION_ID, WORK],
        )
        for second, (role, content) in enumerate(conversation()):
            conn.execute(
                "INSERT INTO messages (session_id, role, content_json, created_timestamp, timestamp, metadata_json) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [
                    SESSION_ID,
                    role,
                    json.dumps(content, separators=(",", ":")),
                    1767261600 + second,
                    f"2026-01-01 10:00:{second:02d}",
                    METADATA,
                ],
            )
        conn.commit()
        conn.execute("VACUUM")
    finally:
        conn.close()


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1]
    build(out / "goose.db")


if __name__ == "__main__":
    main()
