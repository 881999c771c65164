"""OpenHands: `~/.openhands/conversations/<id>/base_state.json`, each beside its `events/` folder.

`$OPENHANDS_CONVERSATIONS_DIR` is the conversations folder when set, else
`$OPENHANDS_PERSISTENCE_DIR/conversations` (default `~/.openhands`). A conversation is a folder
(`base_state.json` and one file per event in `events/`), found by its `base_state.json`, which
opens the whole conversation. Its date is that file's modification time (OpenHands rewrites it as
the run's state changes). Project: the workspace's `working_dir` in `base_state.json`'s head."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from inspector.sources.discovery.contract import Agent, FoundSession, Surroundings
from inspector.sources.discovery.folders import entries, first_cwd, found

NAME = "OpenHands"


def places(around: Surroundings) -> list[Path]:
    """The conversations folder."""
    chosen = around.variable("OPENHANDS_CONVERSATIONS_DIR")
    return [chosen or (around.variable("OPENHANDS_PERSISTENCE_DIR") or around.home / ".openhands") / "conversations"]


def sessions(root: Path) -> Iterator[FoundSession]:
    """The state file of each conversation folder that holds its events."""
    for folder, _ in entries(root, folders=True):
        if not (folder / "events").is_dir():
            continue
        for path, entry in entries(folder, folders=False):
            if entry.name == "base_state.json":
                yield found(NAME, path, entry, first_cwd(entry.path, "working_dir"))


AGENT = Agent(NAME, places, sessions)
