"""The files agents keep beside a session that are not sessions: a Claude Code subagent's
metadata, a Factory Droid session's settings, a Cline CLI session's metadata, a VS Code task's
metadata and chat view (Cline, Roo Code, Kilo Code), and Continue CLI's list of its sessions. A
folder's session files leave each out when the session it belongs to stands beside it (or, for a
list, one of the sessions it names); a file of such a name beside no such session is read as any
other (and said to be no session if it is none)."""

from __future__ import annotations

import json
from collections.abc import Collection
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
    beside = companion_names(names)
    return {
        path
        for path in files
        if path.name in beside or (path.name in LISTS and lists_one_of(path.name, _bytes_of(path), names))
    }


def companion_names(names: Collection[str]) -> set[str]:
    """Those of `names` (one folder's files) that belong to a session among them by their name
    alone (`BESIDE_SESSIONS`); a list of sessions (`LISTS`) is told by what it holds (`lists_one_of`)."""
    present = set(names)
    return {
        name
        for name in present
        for end, session_end in BESIDE_SESSIONS
        if name.endswith(end) and name[: -len(end)] + session_end in present
    }


def lists_one_of(name: str, data: bytes | None, names: Collection[str]) -> bool:
    """Whether `data`, the file `name` of `LISTS`, is a JSON list of entries naming its sessions,
    one of which is among `names` (its folder's files; such a list holds a line or two a session)."""
    try:
        entries = json.loads(data) if data is not None else None
    except (ValueError, RecursionError):
        return False
    key = LISTS[name]
    return (
        isinstance(entries, list)
        and all(isinstance(entry, dict) and isinstance(entry.get(key), str) for entry in entries)
        and any(f"{entry[key]}.json" in names for entry in entries)
    )


def _bytes_of(path: Path) -> bytes | None:
    """The file's bytes, or None when it cannot be read."""
    try:
        return path.read_bytes()
    except OSError:
        return None
