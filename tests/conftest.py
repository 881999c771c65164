"""Shared test helpers: writing real session files and the bundled sample sessions' location."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SESSIONS = Path(__file__).resolve().parent.parent / "sessions"

SAVE_MEMORY = {
    "type": "function",
    "function": {
        "name": "save_memory",
        "description": "Save something the user wants remembered.",
        "parameters": {
            "type": "object",
            "properties": {
                "memory_type": {"type": "string", "enum": ["journal", "core", "fact"]},
                "content": {"type": "string"},
            },
            "required": ["memory_type", "content"],
        },
    },
}
WHITEBOARD = {
    "type": "function",
    "function": {
        "name": "whiteboard",
        "parameters": {
            "type": "object",
            "properties": {
                "action": {"type": "string", "enum": ["create", "update", "get"]},
                "board_id": {"type": "string"},
                "title": {"type": "string"},
                "content": {"type": "string"},
            },
            "required": ["action"],
        },
    },
}


@pytest.fixture
def write_session(tmp_path: Path):
    """Write an OpenAI Chat session file `{"messages", "tools"}` and return its path."""

    def write(messages: list, tools: list | None = None, name: str = "session.json") -> Path:
        path = tmp_path / name
        document = {"messages": messages}
        if tools is not None:
            document["tools"] = tools
        path.write_text(json.dumps(document, indent=2), encoding="utf-8")
        return path

    return write
