"""OpenCode's older JSON storage (releases up to 1.1.65, before its `opencode.db`): one session is
`storage/session/<projectID>/ses_….json` in its data folder `$XDG_DATA_HOME/opencode` (default
`~/.local/share`), beside the session's `storage/message/<id>/` folder (its messages; their parts
are in `storage/part/`). Each session is found by its own file, which opens the whole session;
a session file without its messages' folder (a session not yet answered) is not listed. The date
is that file's modification time; the project is the session's `directory`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from inspector.sources.discovery.contract import Agent, FoundSession, Surroundings
from inspector.sources.discovery.folders import entries, first_cwd, found

NAME = "OpenCode (JSON storage)"


def places(around: Surroundings) -> list[Path]:
    """The sessions folder of the storage, in OpenCode's data folder."""
    return [(around.variable("XDG_DATA_HOME") or around.home / ".local" / "share") / "opencode" / "storage" / "session"]


def sessions(root: Path) -> Iterator[FoundSession]:
    """Each session file of each project's folder that has its messages' folder."""
    messages = root.parent / "message"
    for folder, _ in entries(root, folders=True):
        for path, entry in entries(folder, folders=False):
            if path.name.startswith("ses_") and path.suffix == ".json" and (messages / path.stem).is_dir():
                yield found(NAME, path, entry, first_cwd(entry.path, "directory"))


AGENT = Agent(NAME, places, sessions, "opencode --session {id}")
