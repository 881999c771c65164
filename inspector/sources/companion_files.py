"""The files agents keep beside a session that are not sessions: a Claude Code subagent's
metadata, a Factory Droid session's settings, a Cline CLI session's metadata, a VS Code task's
metadata and chat view (Cline, Roo Code, Kilo Code), and Continue CLI's list of its sessions. A
folder's session files leave each out when the session it belongs to stands beside it (or, for a
list, one of the sessions it names); a file of such a name beside no such session is read as any
other (and said to be no session if it is none)."""

from __future__ import annotations

import json
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


# (a list's name, the key of each of its entries naming a session `<value>.json` beside it)
LISTS = {"sessions.json": "sessionId"}  # Continue CLI: ~/.continue/sessions/sessions.json


def companions(files: list[Path]) -> set[Path]:
    """Those of `files` (one folder's) that belong to a session among them."""
    names = {path.name for path in files}
    beside = {
        path
        for path in files
        for end, session_end in BESIDE_SESSIONS
        if path.name.endswith(end) and path.name[: -len(end)] + session_end in names
    }
    return beside | {path for path in files if path.name in LISTS and _lists_one_of(path, names)}


def _lists_one_of(path: Path, names: set[str]) -> bool:
    """Whether the file at `path` is a JSON list of entries naming its sessions, one of which is
    among `names` (read whole: such a list holds a line or two a session)."""
    try:
        entries = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return False
    key = LISTS[path.name]
    return (
        isinstance(entries, list)
        and all(isinstance(entry, dict) and isinstance(entry.get(key), str) for entry in entries)
        and any(f"{entry[key]}.json" in names for entry in entries)
    )
