"""Shared test helpers: writing real session files, the bundled sample sessions' location, and an
empty home folder for every test (no test ever reads the real one)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SESSIONS = Path(__file__).resolve().parents[1] / "inspector" / "samples"

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


@pytest.fixture(autouse=True)
def empty_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test runs with an empty home folder of its own: `inspector` with no path finds no
    session, and no test can read the real one's sessions (`~/.claude`, `~/.codex`, `~/.gemini`,
    `llm`'s folder). Every variable that moves one of those folders points inside it too."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("USERPROFILE", str(home))
    monkeypatch.setattr(Path, "home", classmethod(lambda cls: home))
    for name, inside in (
        ("CLAUDE_CONFIG_DIR", ".claude"),
        ("CODEX_HOME", ".codex"),
        ("GEMINI_CLI_HOME", ""),
        ("LLM_USER_PATH", ".config/io.datasette.llm"),
        ("XDG_CONFIG_HOME", ".config"),
        ("XDG_DATA_HOME", ".local/share"),
        ("XDG_CACHE_HOME", ".cache"),
        ("XDG_STATE_HOME", ".local/state"),
        ("APPDATA", "AppData/Roaming"),
    ):
        monkeypatch.setenv(name, str(home / inside))
    return home
