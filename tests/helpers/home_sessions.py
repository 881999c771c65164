"""The real tools' sessions put where each tool keeps them under a home folder, as discovery finds
them."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from inspector.sources.discovery.folders import EDITORS
from tests.helpers.samples import SESSIONS, TOOL_SAMPLES

CLAUDE_ID, CODEX_NAME = "75be298c-69f7-4eae-9118-77047fde8a3b", "rollout-2026-11-24T03-11-11-01a20b89.jsonl"
GEMINI_NAME = "session-2026-11-24T03-12-b680cadb.jsonl"

# where discovery looks for the VS Code extensions' tasks, in each editor, as a message says it
VSCODE_PLACES = ", ".join(  # as a message names them: the first editor's, and how many more
    f"{name} ~/.config/{EDITORS[0]}/User/globalStorage/{extension}/tasks and {len(EDITORS) - 1} more"
    for name, extension in (
        ("Cline (VS Code)", "saoudrizwan.claude-dev"),
        ("Roo Code", "rooveterinaryinc.roo-cline"),
        ("Kilo Code", "kilocode.kilo-code"),
    )
)

# Where discovery looks under an empty Linux home, as a message names the places (one line).
LINUX_PLACES_SHOWN = (
    "Claude Code ~/.claude/projects, Codex ~/.codex/sessions, Gemini CLI ~/.gemini/tmp and "
    "~/.cache/.gemini/tmp, Qwen Code ~/.qwen/projects and ~/.qwen/tmp, "
    "Copilot CLI ~/.copilot/session-state and ~/.copilot/history-session-state, "
    "Continue CLI ~/.continue/sessions, Cline CLI ~/.cline/data/sessions, "
    f"{VSCODE_PLACES}, llm ~/.config/io.datasette.llm/logs.db, "
    "OpenCode ~/.local/share/opencode/opencode.db, "
    "OpenCode (JSON storage) ~/.local/share/opencode/storage/session, Kilo CLI ~/.local/share/kilo/kilo.db, "
    "mini-swe-agent ~/.config/mini-swe-agent, Goose ~/.local/share/goose/sessions/sessions.db, "
    "Crush ~/.crush/crush.db, Amp ~/.local/share/amp/threads, OpenHands ~/.openhands/conversations, "
    "Pi ~/.pi/agent/sessions, Factory Droid ~/.factory/sessions, Cursor CLI ~/.cursor/chats, Kimi CLI ~/.kimi/sessions, "
    "Kimi Code ~/.kimi-code/sessions"
)


def put(source: Path, target: Path, modified: float) -> Path:
    """Copy `source` to `target` (making its folders) with the modification time `modified`."""
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    os.utime(target, (modified, modified))
    return target


def sessions_of_every_tool(home: Path) -> dict[str, Path]:
    """The real tools' samples where each tool keeps them under `home`, a minute apart (Gemini
    newest), and a copy of `llm`'s place holding a sample database."""
    gemini_project = home / ".gemini" / "tmp" / "gm-work"
    paths = {
        "claude": put(
            TOOL_SAMPLES / "claude-code.jsonl",
            home / ".claude" / "projects" / "-tmp-cc-work" / f"{CLAUDE_ID}.jsonl",
            1_700_000_060,
        ),
        "codex": put(
            TOOL_SAMPLES / "codex.rollout.jsonl",
            home / ".codex" / "sessions" / "2026" / "11" / "24" / CODEX_NAME,
            1_700_000_120,
        ),
        "gemini": put(TOOL_SAMPLES / "gemini-cli.session.jsonl", gemini_project / "chats" / GEMINI_NAME, 1_700_000_240),
        "llm": put(
            SESSIONS / "rails-chat.rubyllm.db", home / ".config" / "io.datasette.llm" / "logs.db", 1_700_000_180
        ),
    }
    (gemini_project / ".project_root").write_text("/tmp/gm-work", encoding="utf-8")
    return paths


# Each agent's real (or published-schema) sample, where that agent keeps it under a home folder
# on Linux (a folder sample is copied whole), and the format `scan` reads it as.
EVERY_AGENT: dict[str, tuple[Path, str, str]] = {
    "Claude Code": (
        TOOL_SAMPLES / "claude-code.jsonl",
        f".claude/projects/-tmp-cc-work/{CLAUDE_ID}.jsonl",
        "claude-code",
    ),
    "Codex": (TOOL_SAMPLES / "codex.rollout.jsonl", f".codex/sessions/2026/11/24/{CODEX_NAME}", "codex"),
    "Gemini CLI": (TOOL_SAMPLES / "gemini-cli.session.jsonl", f".gemini/tmp/gm-work/chats/{GEMINI_NAME}", "gemini-cli"),
    "Qwen Code": (
        TOOL_SAMPLES / "qwen-code.jsonl",
        ".qwen/projects/-tmp-qw-work/chats/0b6a7c52-3c55-4d1e-9a4b-2f6f1c3e8d10.jsonl",
        "qwen-code",
    ),
    "Copilot CLI": (
        TOOL_SAMPLES / "copilot-cli.events.jsonl",
        ".copilot/session-state/s-1/events.jsonl",
        "copilot-cli",
    ),
    "Continue CLI": (TOOL_SAMPLES / "continue.session.json", ".continue/sessions/s-1.json", "continue-cli"),
    "Cline CLI": (TOOL_SAMPLES / "cline.messages.json", ".cline/data/sessions/s-1/s-1.messages.json", "cline"),
    "Cline (VS Code)": (
        TOOL_SAMPLES / "cline.api_conversation_history.json",
        ".config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1/api_conversation_history.json",
        "cline-task",
    ),
    "Roo Code": (
        TOOL_SAMPLES / "roo-code.api_conversation_history.json",
        ".config/Code/User/globalStorage/rooveterinaryinc.roo-cline/tasks/1/api_conversation_history.json",
        "cline-task",
    ),
    "Kilo Code": (
        TOOL_SAMPLES / "kilo-code.api_conversation_history.json",
        ".config/Code/User/globalStorage/kilocode.kilo-code/tasks/1/api_conversation_history.json",
        "cline-task",
    ),
    "llm": (SESSIONS / "rails-chat.rubyllm.db", ".config/io.datasette.llm/logs.db", "rubyllm"),
    "OpenCode": (TOOL_SAMPLES / "opencode.db", ".local/share/opencode/opencode.db", "opencode"),
    "OpenCode (JSON storage)": (
        TOOL_SAMPLES / "opencode-storage",
        ".local/share/opencode/storage/session/global/ses_ddf1b63fdffeOYSmew4lIfLk5j.json",
        "opencode-storage",
    ),
    "Kilo CLI": (TOOL_SAMPLES / "kilo.db", ".local/share/kilo/kilo.db", "opencode"),
    "mini-swe-agent": (
        TOOL_SAMPLES / "mini-swe-agent.traj.json",
        ".config/mini-swe-agent/last_mini_run.traj.json",
        "mini-swe-agent",
    ),
    "Goose": (TOOL_SAMPLES / "goose.db", ".local/share/goose/sessions/sessions.db", "goose"),
    "Crush": (TOOL_SAMPLES / "crush.db", ".crush/crush.db", "crush"),
    "Amp": (
        TOOL_SAMPLES / "amp.thread.json",
        ".local/share/amp/threads/T-5f0c2a9e-3b1d-4c7e-9a2f-6d8e1b4c7a30.json",
        "amp",
    ),
    "OpenHands": (
        TOOL_SAMPLES / "openhands-conversation",
        ".openhands/conversations/5b1c0d2e/base_state.json",
        "openhands",
    ),
    "Pi": (
        TOOL_SAMPLES / "pi.session.jsonl",
        ".pi/agent/sessions/--tmp-pi-work--/2026-11-28T05-25-29-002Z_s-1.jsonl",
        "pi",
    ),
    "Factory Droid": (
        TOOL_SAMPLES / "factory-droid.jsonl",
        ".factory/sessions/-tmp-droid-work/0f6a2c1e-5b7d-4e3a-9c8b-1d2e3f4a5b6c.jsonl",
        "factory-droid",
    ),
    "Cursor CLI": (
        TOOL_SAMPLES / "cursor-cli.store.db",
        ".cursor/chats/0b8c3f1e9d2a4b5c6d7e8f9012345678/a1b2c3d4-e5f6-4789-abcd-ef0123456789/store.db",
        "cursor-cli",
    ),
    "Kimi CLI": (
        TOOL_SAMPLES / "kimi-cli.context.jsonl",
        ".kimi/sessions/3f2a9c4e8b1d4e6fa5c72d9e0b1f4a68/9b7e2c1a-4d3f-4a5b-8c6d-7e8f9a0b1c2d/context.jsonl",
        "kimi-cli",
    ),
    "Kimi Code": (
        TOOL_SAMPLES / "kimi-code.wire.jsonl",
        ".kimi-code/sessions/wd_kimi-work_e895930b21b9/session_4a1afc25-c1a4-41e8-b80a-2a367ffe82d8/agents/main/wire.jsonl",
        "kimi-code",
    ),
}


def every_agent_s_session(home: Path) -> dict[str, Path]:
    """Each agent's sample (`EVERY_AGENT`) where that agent keeps it under `home`, by agent; for a
    folder sample, the path is the file discovery lists (the folder copied whole around it)."""
    placed = {}
    for agent, (sample, where, _) in EVERY_AGENT.items():
        target = home / where
        if sample.is_dir():  # copied whole, so that the file listed is at `where`
            inside = next(sample.rglob(target.name)).relative_to(sample)
            shutil.copytree(sample, target.parents[len(inside.parts) - 1], dirs_exist_ok=True)
        else:
            put(sample, target, 1_700_000_000)
        placed[agent] = target
    return placed
