#!/usr/bin/env python3
"""Build a Cursor CLI chat store (`sessions/cursor-cli.store.db`) from the shapes its public readers read.

Usage:
    python3 sessions/generate/cursor_cli.py [OUT_DIR]

Cursor's CLI (`cursor-agent`) downloads its binary when it is installed and needs a signed-in
Cursor account to answer, so this sample is built, not written by the tool. It follows the
public readers of `~/.cursor/chats/<md5 of the working folder>/<agent id>/store.db`:

- yashas-salankimatt/sidecar `internal/adapter/cursor/adapter.go` (the reader) and
  `docs/plans/cursor-cli-adapter.md`: the tables `blobs (id TEXT PRIMARY KEY, data BLOB)` and
  `meta (key TEXT PRIMARY KEY, value TEXT)`; the meta row `0` a hex-encoded JSON object
  (`agentId`, `latestRootBlobId`, `name`, `mode`, `createdAt` in ms, `lastUsedModel`); a blob's
  id the SHA-256 of its data, in hex; a message blob a JSON object (`role` system / user /
  assistant / tool; `content` a string or a list of parts `text`, `reasoning`, `tool-call
  {toolCallId, toolName, args, providerOptions.cursor.rawToolCallArgs}`, `tool-result
  {toolCallId, toolName, result, isError}`; every assistant message has `"id": "1"`); a tree
  blob a protobuf message whose field 1 (`0x0A 0x20` + 32 bytes) repeats, in order, the raw
  SHA-256 of each child blob;
- the root's field 9, the workspace's `file://` URI, and the store's WAL mode as the CLI
  keeps it, from the same project's tests of its Cursor adapter.

The CLI writes a new root blob after each message, so the older roots stay in `blobs`; the
meta row names the latest. The user's first message wraps the turn in `<user_info>` and
`<user_query>` as the CLI sends it. The scenario (`scenario.py`): the fake result written as
text, the printed `<tool_call>` markup, and a good `read_file` call answered by its result.
The committed file is checkpointed and left in rollback-journal mode, as the other samples.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from scenario import FAKE_RESULT_REPLY, NOTES_TEXT, RETRY_TEXT, hermes_reply, user_turns  # noqa: E402

AGENT_ID = "6f1d2c3b-4a59-4e7d-9c1b-2a3f4e5d6c7b"
WORKDIR = "/tmp/cu-work"
MODEL = "gpt-5"
CREATED_AT = 1_787_430_000_000
USER_TURNS = user_turns("Use the real read_file tool on notes.txt.")


def user(text: str, first: bool) -> dict:
    """A user message as the CLI stores it: the first with the workspace's details around it."""
    if first:
        text = f"<user_info>\nOS: linux\nWorkspace Path: {WORKDIR}\n</user_info>\n\n<user_query>\n{text}\n</user_query>"
    return {"role": "user", "content": [{"type": "text", "text": text}]}


def assistant(*parts: dict) -> dict:
    """An assistant message (Cursor gives every one the id "1")."""
    return {"id": "1", "role": "assistant", "content": list(parts)}


def text(value: str) -> dict:
    """A text part, with the model named as the CLI names it."""
    return {"type": "text", "text": value, "providerOptions": {"cursor": {"modelName": MODEL}}}


def call(call_id: str, name: str, args: dict) -> dict:
    """A tool-call part: the parsed arguments and the raw string the model sent."""
    raw = json.dumps(args)
    return {
        "type": "tool-call",
        "toolCallId": call_id,
        "toolName": name,
        "args": args,
        "providerOptions": {"cursor": {"rawToolCallArgs": raw}},
    }


def result(call_id: str, name: str, output: str) -> dict:
    """A tool message answering one call."""
    part = {"type": "tool-result", "toolName": name, "toolCallId": call_id, "result": output, "isError": False}
    return {"role": "tool", "id": call_id, "content": [part]}


def messages() -> list[dict]:
    """The conversation, in order."""
    notes = f"{WORKDIR}/notes.txt"
    return [
        {"role": "system", "content": "You are a powerful agentic AI coding assistant, working in Cursor's CLI."},
        user(USER_TURNS[0], True),
        assistant(text(FAKE_RESULT_REPLY)),  # (a) a fake tool result written as text, nothing ran
        user(USER_TURNS[1], False),
        assistant(text(hermes_reply("read_file", {"target_file": notes}))),  # (b) printed markup
        user(USER_TURNS[2], False),
        assistant(text(RETRY_TEXT), call("toolu_mock_good", "read_file", {"target_file": notes})),  # (d)
        result("toolu_mock_good", "read_file", NOTES_TEXT),
        assistant(text("notes.txt says the meeting moved to Thursday, and to bring the draft.")),
    ]


def compact(value: dict) -> bytes:
    """A message blob's data: compact JSON, UTF-8."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def field(number: int, payload: bytes) -> bytes:
    """One length-delimited protobuf field (the lengths here are all under 128)."""
    return bytes([(number << 3) | 2, len(payload)]) + payload


def build(path: Path) -> None:
    """Write the store at `path`: each message's blob, then a new root after each message."""
    path.unlink(missing_ok=True)
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("CREATE TABLE blobs (id TEXT PRIMARY KEY, data BLOB)")
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
    children: list[bytes] = []
    root_id = ""
    for message in messages():
        data = compact(message)
        digest = hashlib.sha256(data)
        db.execute("INSERT OR IGNORE INTO blobs (id, data) VALUES (?, ?)", (digest.hexdigest(), data))
        children.append(digest.digest())
        root = b"".join(field(1, child) for child in children) + field(9, f"file://{WORKDIR}".encode())
        root_id = hashlib.sha256(root).hexdigest()
        db.execute("INSERT OR IGNORE INTO blobs (id, data) VALUES (?, ?)", (root_id, root))
    meta = {
        "agentId": AGENT_ID,
        "latestRootBlobId": root_id,
        "name": "Notes and journal",
        "mode": "auto-run",
        "createdAt": CREATED_AT,
        "lastUsedModel": MODEL,
    }
    db.execute("INSERT INTO meta (key, value) VALUES ('0', ?)", (compact(meta).hex(),))
    db.commit()
    db.execute("PRAGMA journal_mode = DELETE")
    db.close()


def main() -> None:
    """Build the sample in OUT_DIR (default: sessions/)."""
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent
    build(out / "cursor-cli.store.db")
    print(f"wrote {out / 'cursor-cli.store.db'}")


if __name__ == "__main__":
    main()
