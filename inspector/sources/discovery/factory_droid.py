"""Factory Droid: `~/.factory/sessions/<project>/<session uuid>.jsonl`, and in older versions
`~/.factory/sessions/<session uuid>.jsonl`.

`~` is `$FACTORY_HOME_OVERRIDE` when set (Droid keeps its `.factory` folder there). `<project>` is
the working folder with each `/` made `-`. Beside each session Droid keeps its
`<uuid>.settings.json` (and a `.bak` of it), which are not sessions. Project: the `cwd` of the
`session_start` record that opens the file; else the folder's name."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from inspector.sources import NOT_SESSIONS
from inspector.sources.discovery.contract import Agent, FoundSession, Surroundings
from inspector.sources.discovery.folders import entries, first_cwd, found

NAME = "Factory Droid"


def places(around: Surroundings) -> list[Path]:
    """The sessions folder of Droid's `.factory` folder."""
    return [(around.variable("FACTORY_HOME_OVERRIDE") or around.home) / ".factory" / "sessions"]


def sessions(root: Path) -> Iterator[FoundSession]:
    """The sessions of each project's folder, then those kept in the sessions folder itself."""
    for folder, _ in entries(root, folders=True):
        yield from _sessions_in(folder, folder.name)
    yield from _sessions_in(root, "")


def _sessions_in(folder: Path, fallback: str) -> Iterator[FoundSession]:
    for path, entry in entries(folder, folders=False):
        if entry.name.endswith(".jsonl") and not entry.name.endswith(NOT_SESSIONS):
            yield found(NAME, path, entry, first_cwd(entry.path) or fallback)


AGENT = Agent(NAME, places, sessions, resume="droid --resume {id}")
