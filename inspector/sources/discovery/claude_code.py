"""Claude Code: `$CLAUDE_CONFIG_DIR/projects/<project>/*.jsonl`, default `~/.claude/projects`.

`<project>` is the working folder with each character but letters and digits made `-`
(`-home-me-proj`). A session's subagents' transcripts (`<session>/subagents/agent-*.jsonl`) are
found with it (`FoundSession.subagents`); the older versions' `agent-*.jsonl` beside the sessions,
which name no session in theirs, are not listed. Project: the `cwd` of the first event that has
one, within the file's first `HEAD_BYTES`; else the folder's name."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from inspector.sources import NOT_SESSIONS
from inspector.sources.discovery.contract import Agent, FoundSession, Surroundings
from inspector.sources.discovery.folders import entries, files_and_folders, first_cwd, found

NAME = "Claude Code"


def places(around: Surroundings) -> list[Path]:
    """The projects folder of Claude Code's configuration folder."""
    return [(around.variable("CLAUDE_CONFIG_DIR") or around.home / ".claude") / "projects"]


def sessions(root: Path) -> Iterator[FoundSession]:
    """Each project's sessions, each with its subagents' transcripts, the older side chains left out."""
    for folder, _ in entries(root, folders=True):
        files, folders = files_and_folders(folder)
        session_folders = {entry.name for _, entry in folders}
        for path, entry in files:
            if (
                entry.name.endswith(".jsonl")
                and not entry.name.startswith("agent-")
                and not entry.name.endswith(NOT_SESSIONS)
            ):
                session = found(NAME, path, entry, first_cwd(entry.path) or folder.name)
                if path.stem in session_folders:
                    session = replace(session, subagents=_subagents(folder / path.stem / "subagents"))
                yield session


def _subagents(folder: Path) -> tuple[Path, ...]:
    """The subagents' transcripts in a session's `subagents` folder, by name."""
    return tuple(
        sorted(
            path
            for path, entry in entries(folder, folders=False)
            if entry.name.startswith("agent-") and entry.name.endswith(".jsonl")
        )
    )


AGENT = Agent(NAME, places, sessions, resume="claude --resume {id}")
