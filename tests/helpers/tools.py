"""Tool definitions (OpenAI function tools) the session files written in the tests declare."""

from __future__ import annotations

import json
from pathlib import Path

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


def tools_file(folder: Path) -> Path:
    """A `--tools` file in `folder` defining `save_memory`; its path."""
    path = folder / "tools.json"
    path.write_text(json.dumps([SAVE_MEMORY]))
    return path
