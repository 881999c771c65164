"""Pi (the `pi` coding agent): `~/.pi/agent/sessions/--<working folder, / as ->--/<timestamp>_<uuid>.jsonl`.

`$PI_CODING_AGENT_DIR` moves `~/.pi/agent`; `$PI_CODING_AGENT_SESSION_DIR` names a folder Pi then
keeps every session in, with no folder per project (a leading `~/` is the home folder, as Pi reads
it). Project: the session header's `cwd`, the file's first line. A `sessionDir` set in Pi's
`settings.json` (or `--session-dir`) is not followed: give that folder's path."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from inspector.sources import NOT_SESSIONS
from inspector.sources.discovery.contract import Agent, FoundSession, Surroundings
from inspector.sources.discovery.folders import entries, first_cwd, found

NAME = "Pi"


def places(around: Surroundings) -> list[Path]:
    """The folder `$PI_CODING_AGENT_SESSION_DIR` names, else the sessions folder of Pi's agent folder."""
    chosen = around.environ.get("PI_CODING_AGENT_SESSION_DIR", "")
    if chosen:
        return [around.home / chosen[2:] if chosen.startswith("~/") else Path(chosen)]
    agent = around.environ.get("PI_CODING_AGENT_DIR", "")
    folder = (around.home / agent[2:] if agent.startswith("~/") else Path(agent)) if agent else None
    return [(folder or around.home / ".pi" / "agent") / "sessions"]


def sessions(root: Path) -> Iterator[FoundSession]:
    """The session files of the folder and of each project's folder in it."""
    yield from _files(root)
    for folder, _ in entries(root, folders=True):
        yield from _files(folder)


def _files(folder: Path) -> Iterator[FoundSession]:
    for path, entry in entries(folder, folders=False):
        if entry.name.endswith(".jsonl") and not entry.name.endswith(NOT_SESSIONS):
            yield found(NAME, path, entry, first_cwd(entry.path))


AGENT = Agent(NAME, places, sessions, resume="pi --session {id}")
