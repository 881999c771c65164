"""Tool definitions (OpenAI function tools) the session files written in the tests declare, and
messages calling them that several tests write."""

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


WEB_SEARCH = {"type": "function", "function": {"name": "web_search", "parameters": {"type": "object"}}}
SEARCH_CALL = {"id": "c1", "type": "function", "function": {"name": "web_search", "arguments": "{}"}}
# A conversation whose only finding is the tool's own error (`tool-error`, a note: of no rated kind).
REFUSED_SEARCH = [
    {"role": "user", "content": "Look it up."},
    {"role": "assistant", "content": None, "tool_calls": [SEARCH_CALL]},
    {"role": "tool", "tool_call_id": "c1", "content": '{"error": "rate limited"}'},
    {"role": "assistant", "content": "The search service refused the request: it is rate limited."},
]


def tools_file(folder: Path) -> Path:
    """A `--tools` file in `folder` defining `save_memory`; its path."""
    path = folder / "tools.json"
    path.write_text(json.dumps([SAVE_MEMORY]))
    return path
