"""Kilo Code: the VS Code extension's tasks, `<editor>/User/globalStorage/kilocode.kilo-code/tasks/<id>/api_conversation_history.json`.

The editor's user data is looked for in VS Code's folder and those of Code - Insiders, VSCodium,
Cursor and Windsurf (`folders.extension_tasks_folders`). The task's `ui_messages.json` and
`task_metadata.json` and the extension's `state/taskHistory.json` are not listed. Kilo Code reopens
a task from its history inside the editor only: no command resumes one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from inspector.sources.discovery.contract import Agent, FoundSession, Surroundings
from inspector.sources.discovery.folders import extension_tasks, extension_tasks_folders

NAME = "Kilo Code"
EXTENSION = "kilocode.kilo-code"


def places(around: Surroundings) -> list[Path]:
    """The extension's tasks folder in each editor's global storage."""
    return extension_tasks_folders(around, EXTENSION)


def sessions(root: Path) -> Iterator[FoundSession]:
    """Each task's API history."""
    return extension_tasks(NAME, root)


AGENT = Agent(NAME, places, sessions)
