"""The files agents keep beside a session that are not sessions: a Claude Code subagent's
metadata, a Factory Droid session's settings, a Cline CLI session's metadata, a VS Code task's
metadata and chat view (Cline, Roo Code, Kilo Code). A folder's session files leave each out when
the session it belongs to stands beside it; a file of such a name beside no such session is read
as any other (and said to be no session if it is none)."""

from __future__ import annotations

from pathlib import Path

# (the end of a companion's name, the end of its session's name): the two names share what comes
# before those ends (`agent-a17.meta.json` beside `agent-a17.jsonl`; `task_metadata.json` beside
# `api_conversation_history.json`)
BESIDE_SESSIONS = (
    (".meta.json", ".jsonl"),  # Claude Code: <session>/subagents/agent-<id>.meta.json
    (".settings.json", ".jsonl"),  # Factory Droid: <session id>.settings.json
    (".json", ".messages.json"),  # Cline CLI: <id>.json beside <id>.messages.json
    ("task_metadata.json", "api_conversation_history.json"),  # a VS Code task's folder
    ("ui_messages.json", "api_conversation_history.json"),
)


def companions(files: list[Path]) -> set[Path]:
    """Those of `files` (one folder's) that belong to a session among them."""
    names = {path.name for path in files}
    return {
        path
        for path in files
        for end, session_end in BESIDE_SESSIONS
        if path.name.endswith(end) and path.name[: -len(end)] + session_end in names
    }
