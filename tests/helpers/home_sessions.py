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
