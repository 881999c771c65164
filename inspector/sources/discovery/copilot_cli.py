"""GitHub Copilot CLI: `$COPILOT_HOME/session-state/<session id>/events.jsonl`, default `~/.copilot`.

Each session is a folder named by its id, holding its event log (and `workspace.yaml`,
`checkpoints/`, ...). Project: `session.start`'s `context.cwd`, the first `cwd` of the log's head.
Versions before 0.0.342 kept each session as one file, `history-session-state/session_<id>_<ms>.json`
in the same folder, also listed (no project: those files do not say where the CLI ran)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from inspector.sources.discovery.contract import Agent, FoundSession, Surroundings
from inspector.sources.discovery.folders import entries, first_cwd, found

NAME = "Copilot CLI"
OLDER_STORE = "history-session-state"


def places(around: Surroundings) -> list[Path]:
    """The session-state folder of Copilot's home, and the older versions' folder beside it."""
    home = around.variable("COPILOT_HOME") or around.home / ".copilot"
    return [home / "session-state", home / OLDER_STORE]


def sessions(root: Path) -> Iterator[FoundSession]:
    """The event log of each session's folder; in the older folder, each session's file."""
    if root.name == OLDER_STORE:
        for path, entry in entries(root, folders=False):
            if entry.name.endswith(".json"):
                yield found(NAME, path, entry, "")
        return
    for folder, _ in entries(root, folders=True):
        for path, entry in entries(folder, folders=False):
            if entry.name == "events.jsonl":
                yield found(NAME, path, entry, first_cwd(entry.path))


AGENT = Agent(NAME, places, sessions, resume="copilot --resume {id}")
