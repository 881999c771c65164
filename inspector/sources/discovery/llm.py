"""`llm`: `$LLM_USER_PATH/logs.db`, one history database; no project.

Default folder: the click app folder `io.datasette.llm`: on Linux in `$XDG_CONFIG_HOME` (default
`~/.config`), on macOS in `~/Library/Application Support`, on Windows in `%APPDATA%` (default
`~`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from inspector.sources.discovery.contract import Agent, FoundSession, Surroundings
from inspector.sources.discovery.folders import found_file

NAME = "llm"
APP = "io.datasette.llm"


def places(around: Surroundings) -> list[Path]:
    """`llm`'s database: `$LLM_USER_PATH/logs.db`, else in the folder `click.get_app_dir` gives."""
    return [_user_folder(around) / "logs.db"]


def sessions(database: Path) -> Iterator[FoundSession]:
    """The database, when it is there."""
    history = found_file(NAME, database)
    if history is not None:
        yield history


def _user_folder(around: Surroundings) -> Path:
    chosen = around.variable("LLM_USER_PATH")
    if chosen:
        return chosen
    if around.platform.startswith("win"):
        return (around.variable("APPDATA") or around.home) / APP
    if around.platform == "darwin":
        return around.home / "Library" / "Application Support" / APP
    return (around.variable("XDG_CONFIG_HOME") or around.home / ".config") / APP


AGENT = Agent(NAME, places, sessions, history=True)
