"""Amp: `$XDG_DATA_HOME/amp/threads/T-*.json`, default `~/.local/share`.

Each thread is one JSON file named by its id. Project: the `cwd` of the thread's starting
environment (`env.initial.cwd`) when the file's head holds one, else none."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from inspector.sources.discovery.contract import Agent, FoundSession, Surroundings
from inspector.sources.discovery.folders import entries, first_cwd, found

NAME = "Amp"


def places(around: Surroundings) -> list[Path]:
    """The threads folder of Amp's data folder."""
    return [(around.variable("XDG_DATA_HOME") or around.home / ".local" / "share") / "amp" / "threads"]


def sessions(root: Path) -> Iterator[FoundSession]:
    """The thread files of the folder."""
    for path, entry in entries(root, folders=False):
        if entry.name.startswith("T-") and entry.name.endswith(".json"):
            yield found(NAME, path, entry, first_cwd(entry.path))


AGENT = Agent(NAME, places, sessions, resume="amp threads continue {id}")
