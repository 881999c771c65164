"""Kilo CLI (an OpenCode fork): `$XDG_DATA_HOME/kilo/kilo.db` (default `~/.local/share`), one
history database in WAL mode; `$KILO_DB` names another (absolute, or relative to that folder).
Found as OpenCode's is (`opencode`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from inspector.sources.discovery.contract import Agent, FoundSession, Surroundings
from inspector.sources.discovery.opencode import database_places, history

NAME = "Kilo CLI"


def places(around: Surroundings) -> list[Path]:
    """Kilo's database: `$KILO_DB`, else `kilo.db` in its data folder."""
    return database_places(around, "kilo", "KILO_DB")


def sessions(database: Path) -> Iterator[FoundSession]:
    """The database, when it is there."""
    return history(NAME, database)


AGENT = Agent(NAME, places, sessions, "kilo --session {id}", history=True)
