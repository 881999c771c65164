"""Cline CLI: `~/.cline/data/sessions/<id>/<id>.messages.json`.

`CLINE_SESSION_DATA_DIR` names the sessions folder itself; else `CLINE_DATA_DIR` the data folder
holding it; else `CLINE_DIR` Cline's folder (default `~/.cline`) holding `data/`. Project: the
`cwd` of the session's `<id>.json` beside it (within `HEAD_BYTES`), else none. The session's
`<id>.json` and the `db/sessions.db` index are not listed: the messages file is the session."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from inspector.sources.discovery.contract import Agent, FoundSession, Surroundings
from inspector.sources.discovery.folders import entries, first_cwd, found

NAME = "Cline CLI"
MESSAGES = ".messages.json"


def places(around: Surroundings) -> list[Path]:
    """The sessions folder of Cline's data folder."""
    sessions_folder = around.variable("CLINE_SESSION_DATA_DIR")
    if sessions_folder is not None:
        return [sessions_folder]
    data = around.variable("CLINE_DATA_DIR") or (around.variable("CLINE_DIR") or around.home / ".cline") / "data"
    return [data / "sessions"]


def sessions(root: Path) -> Iterator[FoundSession]:
    """The messages file of each session's folder, named after the folder."""
    for folder, folder_entry in entries(root, folders=True):
        for path, entry in entries(folder, folders=False):
            if entry.name == folder_entry.name + MESSAGES:
                yield found(NAME, path, entry, first_cwd(str(folder / f"{folder_entry.name}.json")))


AGENT = Agent(NAME, places, sessions, resume="cline --id {id}")
