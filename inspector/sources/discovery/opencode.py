"""OpenCode: `$XDG_DATA_HOME/opencode/opencode.db` (default `~/.local/share`, on macOS too: the
tool takes its folders from `xdg-basedir`), one history database in WAL mode; `$OPENCODE_DB` names
another (absolute, or relative to that folder). No project: a session's folder is in its row.
Builds of another release channel (`opencode-<channel>.db`) are not looked for.

Kilo CLI, its fork, keeps `kilo/kilo.db` there the same way (`kilo`, through `database_places`
and `history`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from inspector.sources.discovery.contract import Agent, FoundSession, Surroundings
from inspector.sources.discovery.folders import found_file

NAME = "OpenCode"


def places(around: Surroundings) -> list[Path]:
    """OpenCode's database: `$OPENCODE_DB`, else `opencode.db` in its data folder."""
    return database_places(around, "opencode", "OPENCODE_DB")


def sessions(database: Path) -> Iterator[FoundSession]:
    """The database, when it is there."""
    return history(NAME, database)


def database_places(around: Surroundings, app: str, variable: str) -> list[Path]:
    """Where an OpenCode build called `app` keeps its database: the one `$<variable>` names when it
    is set (absolute, or in the data folder; ":memory:" names none), else `<app>.db` in its data
    folder `$XDG_DATA_HOME/<app>` (default `~/.local/share/<app>`)."""
    folder = (around.variable("XDG_DATA_HOME") or around.home / ".local" / "share") / app
    chosen = around.environ.get(variable, "")
    if chosen == ":memory:":
        return []
    return [folder / chosen if chosen else folder / f"{app}.db"]


def history(tool: str, database: Path) -> Iterator[FoundSession]:
    """The database of `tool`, when it is there, dated by its last write (its `-wal` file holds
    the writes not yet copied into it)."""
    found = found_file(tool, database)
    if found is None:
        return
    log = found_file(tool, database.with_name(database.name + "-wal"))
    yield replace(found, modified=max(found.modified, log.modified if log else 0.0))


AGENT = Agent(NAME, places, sessions, "opencode --session {id}", history=True)
