"""Gemini CLI: `$GEMINI_CLI_HOME/.gemini/tmp/<project>/chats/session-*.json` and `*.jsonl`.

`GEMINI_CLI_HOME` stands for the home folder (default `~`); the same is looked for under
`$GEMINI_CLI_HOME/.cache/.gemini/tmp/` (where it keeps them when run under macOS's
`sandbox-exec`). A session's subagents' chats (`chats/<its sessionId>/*.jsonl`) are its subagents
(`Agent.subagents`). Project: the folder named in `<project>/.project_root` (written by recent
versions, 0.61 among them); else the folder's name (a hash of the project's path in older
versions)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from inspector.sources import NOT_SESSIONS
from inspector.sources.discovery.contract import Agent, FoundSession, Surroundings
from inspector.sources.discovery.folders import VALUE_BYTES, entries, first_cwd, found, head, while_unchanged

NAME = "Gemini CLI"


def places(around: Surroundings) -> list[Path]:
    """The temporary folders, plain and under `.cache`, of Gemini CLI's home."""
    home = around.variable("GEMINI_CLI_HOME") or around.home
    return [home / ".gemini" / "tmp", home / ".cache" / ".gemini" / "tmp"]


def sessions(root: Path) -> Iterator[FoundSession]:
    """Each project's chats (its `.project_root` read once, when it has any)."""
    for folder, _ in entries(root, folders=True):
        named = [
            (path, entry)
            for path, entry in entries(folder / "chats", folders=False)
            if entry.name.startswith("session-")
            and entry.name.endswith((".json", ".jsonl"))
            and not entry.name.endswith(NOT_SESSIONS)
        ]
        if named:
            marker = head(folder / ".project_root", VALUE_BYTES).decode("utf-8", "replace").strip()
            project = marker or folder.name
            yield from (found(NAME, path, entry, project) for path, entry in named)


def subagents(session: Path) -> tuple[Path, ...]:
    """The chats in the folder named by the session's `sessionId` beside it (its head is read only
    when its chats folder holds a folder: most hold none)."""
    folders = _folders_in(session.parent)
    if not folders:
        return ()
    session_id = first_cwd(str(session), key="sessionId")
    if session_id not in folders:
        return ()  # (no id, none of its subagents, or one that would name a folder elsewhere)
    return tuple(
        sorted(
            path
            for path, entry in entries(session.parent / session_id, folders=False)
            if entry.name.endswith(".jsonl") and not entry.name.endswith(NOT_SESSIONS)
        )
    )


def _folders_in(chats: Path) -> frozenset[str]:
    """The names of the folders in a chats folder, listed again only when its entries changed."""
    return while_unchanged(chats, _folder_names, frozenset())


def _folder_names(folder: Path) -> frozenset[str]:
    return frozenset(entry.name for _, entry in entries(folder, folders=True))


AGENT = Agent(NAME, places, sessions, resume="gemini --resume {id}", subagents=subagents)
