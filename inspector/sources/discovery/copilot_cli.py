"""GitHub Copilot CLI: `$COPILOT_HOME/session-state/<session id>/events.jsonl`, default `~/.copilot`.

Each session is a folder named by its id, holding its event log (and `workspace.yaml`,
`checkpoints/`, ...). Project: `session.start`'s `context.cwd`, the first `cwd` of the log's head.
The older `history-session-state/<id>.json` files (before 1.0) are not listed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from inspector.sources.discovery.contract import Agent, FoundSession, Surroundings
from inspector.sources.discovery.folders import entries, first_cwd, found

NAME = "Copilot CLI"


def places(around: Surroundings) -> list[Path]:
    """The session-state folder of Copilot's home."""
    return [(around.variable("COPILOT_HOME") or around.home / ".copilot") / "session-state"]


def sessions(root: Path) -> Iterator[FoundSession]:
    """The event log of each session's folder."""
    for folder, _ in entries(root, folders=True):
        for path, entry in entries(folder, folders=False):
            if entry.name == "events.jsonl":
                yield found(NAME, path, entry, first_cwd(entry.path))


AGENT = Agent(NAME, places, sessions, resume="copilot --resume {id}")
