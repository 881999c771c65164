"""Claude Code: `$CLAUDE_CONFIG_DIR/projects/<project>/*.jsonl`, default `~/.claude/projects`.

`<project>` is the working folder with each character but letters and digits made `-`
(`-home-me-proj`). A session's subagents (`Agent.subagents`) are the transcripts in its
`<session>/subagents/agent-*.jsonl` (2.1), and the `agent-*.jsonl` beside the sessions whose
`sessionId` names it (2.0, which keeps its warm-up agents' there too); those are not sessions of
their own. Project: the `cwd` of the first event that has one, within the file's first
`HEAD_BYTES`; else the folder's name."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from inspector.sources import NOT_SESSIONS
from inspector.sources.discovery.contract import Agent, FoundSession, Surroundings
from inspector.sources.discovery.folders import entries, first_cwd, found, while_unchanged

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
    """The transcripts in the session's `<session>/subagents` folder, then those beside it that
    name it, each by name."""
    folder = session.parent / session.stem / "subagents"
    newer = sorted(path for path, entry in entries(folder, folders=False) if _is_side_chain(entry.name))
    return (*newer, *_side_chains_beside(session.parent).get(session.stem, ()))


def _side_chains_beside(project: Path) -> dict[str, tuple[Path, ...]]:
    """The `agent-*.jsonl` of a project folder by the `sessionId` each names (read from its head),
    read again only when the folder's entries changed."""
    return while_unchanged(project, _side_chains_in, {})


def _side_chains_in(project: Path) -> dict[str, tuple[Path, ...]]:
    by_session: dict[str, list[Path]] = {}
    for path, entry in sorted(entries(project, folders=False)):
        if _is_side_chain(entry.name) and (session_id := first_cwd(entry.path, key="sessionId")):
            by_session.setdefault(session_id, []).append(path)
    return {session_id: tuple(paths) for session_id, paths in by_session.items()}


def _is_side_chain(name: str) -> bool:
    return name.startswith("agent-") and name.endswith(".jsonl")


AGENT = Agent(NAME, places, sessions, resume="claude --resume {id}", subagents=subagents)
