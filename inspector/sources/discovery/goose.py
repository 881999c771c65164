"""Goose: `sessions/sessions.db` in its data folder, one history database; no project (a
session's folder is in its row). The data folder is `$GOOSE_PATH_ROOT/data` when that is set,
else `$XDG_DATA_HOME/goose` (default `~/.local/share/goose`, on macOS too: Goose takes its
folders from the XDG strategy of `etcetera` there), and `%APPDATA%\\Block\\goose\\data` on Windows.
Older versions' `*.jsonl` session files are not looked for (Goose moves them into the database
when it starts)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from inspector.sources.discovery.contract import Agent, FoundSession, Surroundings
from inspector.sources.discovery.opencode import history

NAME = "Goose"


def places(around: Surroundings) -> list[Path]:
    """Goose's database, `sessions/sessions.db` in its data folder."""
    return [_data_folder(around) / "sessions" / "sessions.db"]


def sessions(database: Path) -> Iterator[FoundSession]:
    """The database, when it is there, dated by its last write."""
    return history(NAME, database)


def _data_folder(around: Surroundings) -> Path:
    root = around.variable("GOOSE_PATH_ROOT")
    if root:
        return root / "data"
    if around.platform.startswith("win"):
        return (around.variable("APPDATA") or around.home) / "Block" / "goose" / "data"
    return (around.variable("XDG_DATA_HOME") or around.home / ".local" / "share") / "goose"


AGENT = Agent(NAME, places, sessions, history=True)
