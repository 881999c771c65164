"""SQLite histories of Elia, Open WebUI, `llm` before 0.32 and a home-grown table, built with the
tables each application creates, holding realistic broken turns."""

from __future__ import annotations

import html
import json
from pathlib import Path

import sqlite_utils

FAKE_SAVE = '{success: true, memory_type: "journal", content: "Walked by the canal."}You saw right through me.'
LEAKED_CALL = (
    '<tool_call>\n{"name": "web_search", "arguments": {"query": "tempo run length"}}\n</tool_call>\n'
    "Let me look that up."
)


def build_elia(path: Path) -> Path:
    """Elia's tables (`chat`, `message`) with two chats, one of them with a leaked call."""
    db = sqlite_utils.Database(path)
    db["chat"].insert_all(
        [
            {"id": 1, "model": "gpt-4o", "title": "Runs", "started_at": "2026-01-02 10:00:00"},
            {"id": 2, "model": "gpt-4o", "title": "Hi", "started_at": "2026-01-03 10:00:00"},
        ],
        pk="id",
    )
    rows = [
        (1, "system", "You are helpful."),
        (1, "user", "How long is a tempo run?"),
        (1, "assistant", LEAKED_CALL),
        (2, "user", "hello"),
        (2, "assistant", "Hello! How can I help?"),
    ]
    db["message"].insert_all(
        [
            {
                "id": i,
                "chat_id": chat,
                "role": role,
                "content": content,
                "timestamp": f"2026-01-0{chat + 1} 10:00:{i:02d}",
                "meta": "{}",
                "parent_id": None,
                "model": "gpt-4o",
            }
            for i, (chat, role, content) in enumerate(rows, start=1)
        ],
        pk="id",
    )
    return path


def build_generic(path: Path) -> Path:
    """An app's own table: `turns(turn_no, convo, speaker, body)`, out of order on disk."""
    db = sqlite_utils.Database(path)
    db["turns"].insert_all(
        [
            {"turn_no": 2, "convo": "a", "speaker": "bot", "body": FAKE_SAVE},
            {"turn_no": 1, "convo": "a", "speaker": "human", "body": "Journal my walk."},
            {"turn_no": 1, "convo": "b", "speaker": "human", "body": "hi"},
            {"turn_no": 2, "convo": "b", "speaker": "narrator", "body": "(silence)"},
        ]
    )
    return path


def build_llm_legacy(path: Path) -> Path:
    """`llm` 0.31's tables: a conversation with a real call, its result, then a fake result."""
    db = sqlite_utils.Database(path)
    db["conversations"].insert({"id": "01conv", "name": "memories", "model": "gpt-4o-mini"}, pk="id")
    db["tools"].insert(
        {
            "id": 1,
            "hash": "h1",
            "name": "save_memory",
            "description": "Save a memory.",
            "input_schema": json.dumps(
                {
                    "type": "object",
                    "properties": {"memory_type": {"type": "string"}, "content": {"type": "string"}},
                    "required": ["memory_type", "content"],
                }
            ),
            "plugin": None,
        },
        pk="id",
    )
    responses = [
        ("01r1", "Remember I like tea.", ""),
        ("01r2", "", "Saved."),
        ("01r3", "Journal that I walked.", FAKE_SAVE),
    ]
    db["responses"].insert_all(
        [
            {
                "id": rid,
                "model": "gpt-4o-mini",
                "prompt": prompt,
                "system": "Be brief.",
                "response": response,
                "conversation_id": "01conv",
                "datetime_utc": f"2026-01-01T10:00:0{i}",
            }
            for i, (rid, prompt, response) in enumerate(responses)
        ],
        pk="id",
    )
    db["tool_calls"].insert(
        {
            "id": 1,
            "response_id": "01r1",
            "tool_id": 1,
            "name": "save_memory",
            "arguments": '{"memory_type": "fact", "content": "Likes tea."}',
            "tool_call_id": "tc1",
        },
        pk="id",
    )
    db["tool_results"].insert(
        {
            "id": 1,
            "response_id": "01r2",
            "tool_id": 1,
            "name": "save_memory",
            "output": "saved",
            "tool_call_id": "tc1",
            "instance_id": None,
            "exception": None,
        },
        pk="id",
    )
    return path


def details(call_id: str, name: str, arguments: dict, result: str) -> str:
    """An Open WebUI tool-call tag, encoded as Open WebUI writes it."""
    encode = lambda value: html.escape(json.dumps(json.dumps(value)))  # noqa: E731 - double-encoded JSON
    return (
        f'<details type="tool_calls" done="true" id="{call_id}" name="{name}" arguments="{encode(arguments)}" '
        f'result="{encode(result)}" files="">\n<summary>Tool Executed</summary>\n</details>\n'
    )


def build_open_webui(path: Path) -> Path:
    """`webui.db`'s `chat` table: a chat with a real call in a details tag, then a fake result."""
    messages = {
        "u1": {"id": "u1", "parentId": None, "childrenIds": ["a1"], "role": "user", "content": "Note that I like tea."},
        "a1": {
            "id": "a1",
            "parentId": "u1",
            "childrenIds": ["u2"],
            "role": "assistant",
            "model": "llama3",
            "content": "Saving it.\n"
            + details("call_1", "save_memory", {"memory_type": "fact", "content": "Likes tea."}, "saved")
            + "Done.",
        },
        "u2": {
            "id": "u2",
            "parentId": "a1",
            "childrenIds": ["a2", "a2b"],
            "role": "user",
            "content": "Journal my walk.",
        },
        "a2": {"id": "a2", "parentId": "u2", "childrenIds": [], "role": "assistant", "content": FAKE_SAVE},
        "a2b": {"id": "a2b", "parentId": "u2", "childrenIds": [], "role": "assistant", "content": "An older branch."},
    }
    chat = {"id": "c1", "title": "Tea", "history": {"messages": messages, "currentId": "a2"}, "messages": []}
    db = sqlite_utils.Database(path)
    db["chat"].insert(
        {
            "id": "c1",
            "user_id": "u",
            "title": "Tea",
            "chat": json.dumps(chat),
            "created_at": 1,
            "updated_at": 2,
            "share_id": None,
            "archived": 0,
        },
        pk="id",
    )
    return path
