"""Claude Code: `$CLAUDE_CONFIG_DIR/projects/<project>/*.jsonl`, default `~/.claude/projects`.

`<project>` is the working folder with each character but letters and digits made `-`
(`-home-me-proj`). A session's subagents' transcripts (`<session>/subagents/agent-*.jsonl`) are
its subagents (`Agent.subagents`); the older versions' `agent-*.jsonl` beside the sessions, which
name no session in theirs, are not listed. Project: the `cwd` of the first event that has one,
within the file's first `HEAD_BYTES`; else the folder's name."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from inspector.sources import NOT_SESSIONS
from inspector.sources.discovery.contract import Agent, FoundSession, Surroundings
from inspector.sources.discovery.folders import entries, first_cwd, found

NAME = "Claude Code"


def places(around: Surroundings) -> list[Path]:
    """The projects folder of Claude Code's configuration folder."""
    return [(around.variable("CLAUDE_CONFIG_DIR") or around.home / ".claude") / "projects"]


def sessions(root: Path) -> Iterator[FoundSession]:
    """Each project's sessions, the side chains left out."""
    for folder, _ in entries(root, folders=True):
        for path, entry in entries(folder, folders=False):
            if (
                entry.name.endswith(".jsonl")
                and not entry.name.startswith("agent-")
                and not entry.name.endswith(NOT_SESSIONS)
            ):
                yield found(NAME, path, entry, first_cwd(entry.path) or folder.name)


def subagents(session: Path) -> tuple[Path, ...]:
    """The transcripts in the session's `<session>/subagents` folder, by name."""
    folder = session.parent / session.stem / "subagents"
    return tuple(
        sorted(
            path
            for path, entry in entries(folder, folders=False)
            if entry.name.startswith("agent-") and entry.name.endswith(".jsonl")
        )
    )


AGENT = Agent(NAME, places, sessions, resume="claude --resume {id}", subagents=subagents)
