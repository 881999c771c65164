"""Claude Code: `$CLAUDE_CONFIG_DIR/projects/<project>/*.jsonl`, default `~/.claude/projects`.

`<project>` is the working folder with each character but letters and digits made `-`
(`-home-me-proj`). The subagents' side chains (`<session>/subagents/agent-*.jsonl`, and
`agent-*.jsonl` beside the sessions in older versions) are not listed. Project: the `cwd` of the
first event that has one, within the file's first `HEAD_BYTES`; else the folder's name."""

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


AGENT = Agent(NAME, places, sessions, resume="claude --resume {id}")
