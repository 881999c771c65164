"""Crush: `crush.db` in a project's data folder (`.crush/` by default, `options.data_directory`
in its configuration), one history database per project; a session's folder is not in its rows.
The one looked for is the home folder's, `~/.crush/crush.db` (Crush run there); the other
projects' databases are not looked for: give their path."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from inspector.sources.discovery.contract import Agent, FoundSession, Surroundings
from inspector.sources.discovery.opencode import history

NAME = "Crush"


def places(around: Surroundings) -> list[Path]:
    """The home folder's Crush database."""
    return [around.home / ".crush" / "crush.db"]


def sessions(database: Path) -> Iterator[FoundSession]:
    """The database, when it is there, dated by its last write."""
    return history(NAME, database)


AGENT = Agent(NAME, places, sessions, history=True)
