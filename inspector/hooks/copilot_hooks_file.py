"""GitHub Copilot CLI's hook, installed as a hooks file of its own.

Copilot CLI loads every `*.json` in its hooks folders: the person's `~/.copilot/hooks/`
(`$COPILOT_HOME/hooks/` when that is set) and a project's `.github/hooks/`. Installing writes
`inspector.json` there, holding one command hook on `Stop` (the event named as Claude Code names
it, whose input has Claude Code's fields):

    {"version": 1, "hooks": {"Stop": [{"type": "command", "bash": "<hook_command>", "timeoutSec": 30}]}}

No file of the person's is edited, so uninstalling gives every settings file back as it was: it
removes that file (and the hooks folder when that leaves it empty). A file of that name that is not
the inspector's is left alone, and said so.
"""

from __future__ import annotations

import json
import os
from contextlib import suppress
from pathlib import Path
from typing import Any

from inspector.errors import InspectorError
from inspector.support.atomic_files import file_mode, land, staged_bytes
from inspector.support.safe_text import shown_name

AGENT = "copilot-cli"
FILE_NAME = "inspector.json"
EVENT = "Stop"
TIMEOUT_SECONDS = 30


def hooks_file(project: bool, cwd: Path) -> Path:
    """Where the hook's file goes: the project's `.github/hooks/`, or the person's Copilot hooks folder."""
    if project:
        return cwd / ".github" / "hooks" / FILE_NAME
    return Path(os.environ.get("COPILOT_HOME") or Path.home() / ".copilot") / "hooks" / FILE_NAME


def install_file(path: Path, command: str) -> str:
    """Write the hook's file at `path` running `command`; what was done, in one line."""
    found = _commands(path)
    if found == [command]:
        return f"{shown_name(path)}: the hook is already installed"
    if found is None and path.exists():
        raise InspectorError(f"{shown_name(path)}: not the inspector's hooks file; move it away first")
    hooks = {"version": 1, "hooks": {EVENT: [{"type": "command", "bash": command, "timeoutSec": TIMEOUT_SECONDS}]}}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(hooks, indent=2) + "\n"
        land(staged_bytes(path, text.encode(), file_mode(path)), path)
    except OSError as exc:
        raise InspectorError(f"{shown_name(path)}: cannot be written ({exc.strerror})") from None
    return f"{shown_name(path)}: installed the hook on {EVENT} ({command})"


def uninstall_file(path: Path) -> str:
    """Remove the hook's file at `path` (and its folder, when left empty); what was done, in one line."""
    if not _commands(path):
        return f"{shown_name(path)}: the hook is not installed there"
    try:
        path.unlink()
    except OSError as exc:
        raise InspectorError(f"{shown_name(path)}: cannot be removed ({exc.strerror})") from None
    with suppress(OSError):  # a folder holding other hooks stays
        path.parent.rmdir()
    return f"{shown_name(path)}: uninstalled the hook (removed the file)"


def file_installed(path: Path) -> bool:
    """Whether the hook's file at `path` runs the inspector's Copilot CLI hook."""
    return bool(_commands(path))


def _commands(path: Path) -> list[str] | None:
    """The commands of the hook's file at `path` ([] when there is none), or None for a file that
    is not the inspector's."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise InspectorError(f"{shown_name(path)}: cannot be read ({exc.strerror})") from None
    try:
        value: Any = json.loads(data)
        entries = value["hooks"][EVENT]
        commands = [entry["bash"] for entry in entries]
    except (ValueError, TypeError, KeyError):
        return None
    ours = all(isinstance(command, str) and command.endswith(f" -m inspector.hooks {AGENT}") for command in commands)
    return commands if ours and set(value) == {"version", "hooks"} and set(value["hooks"]) == {EVENT} else None
