"""Continue CLI (`cn`): `$CONTINUE_GLOBAL_DIR/sessions/<session id>.json`, default `~/.continue`.

The folder's `sessions.json` is its list of sessions, not one. Project: the session's
`workspaceDirectory`, within the file's head. `cn --resume` takes the session written last, so an
export copied over its file is the one it resumes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from inspector.sources import NOT_SESSIONS
from inspector.sources.discovery.contract import Agent, FoundSession, Surroundings
from inspector.sources.discovery.folders import entries, first_cwd, found

NAME = "Continue CLI"
INDEX = "sessions.json"


def places(around: Surroundings) -> list[Path]:
    """The sessions folder of Continue's global folder."""
    return [(around.variable("CONTINUE_GLOBAL_DIR") or around.home / ".continue") / "sessions"]


def sessions(root: Path) -> Iterator[FoundSession]:
    """The session files, the list of them left out."""
    for path, entry in entries(root, folders=False):
        if entry.name.endswith(".json") and entry.name != INDEX and not entry.name.endswith(NOT_SESSIONS):
            yield found(NAME, path, entry, first_cwd(entry.path, "workspaceDirectory"))


AGENT = Agent(NAME, places, sessions, resume="cn --resume")
