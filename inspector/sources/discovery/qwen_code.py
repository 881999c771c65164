"""Qwen Code: `~/.qwen/projects/<project>/chats/*.jsonl`, and in older versions
`~/.qwen/tmp/<project hash>/chats/*.json` and `*.jsonl`.

`~/.qwen` is `$QWEN_HOME` when set, and `$QWEN_RUNTIME_DIR` when set moves both folders (Qwen Code
keeps its chats under that runtime folder). `<project>` is the working folder with each character
but letters and digits made `-`. Project: the `cwd` of the first record that has one, within the
file's first `HEAD_BYTES`; else the folder's name. A chat's subagents (`Agent.subagents`) that ran
in the background (Qwen Code 0.24) are the transcripts `<project>/subagents/<chat id>/agent-*.jsonl`
(a subagent in the foreground writes into the chat itself)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from inspector.sources import NOT_SESSIONS
from inspector.sources.discovery.contract import Agent, FoundSession, Surroundings
from inspector.sources.discovery.folders import entries, first_cwd, found

NAME = "Qwen Code"


def places(around: Surroundings) -> list[Path]:
    """The projects folder and the older temporary folder of Qwen Code's runtime folder."""
    base = around.variable("QWEN_RUNTIME_DIR") or around.variable("QWEN_HOME") or around.home / ".qwen"
    return [base / "projects", base / "tmp"]


def sessions(root: Path) -> Iterator[FoundSession]:
    """Each project's chats."""
    for folder, _ in entries(root, folders=True):
        for path, entry in entries(folder / "chats", folders=False):
            if entry.name.endswith((".json", ".jsonl")) and not entry.name.endswith(NOT_SESSIONS):
                yield found(NAME, path, entry, first_cwd(entry.path) or folder.name)


def subagents(session: Path) -> tuple[Path, ...]:
    """The transcripts in the folder named by the chat's id under its project's `subagents`."""
    if session.parent.name != "chats":
        return ()
    folder = session.parent.parent / "subagents" / session.stem
    return tuple(
        sorted(
            path
            for path, entry in entries(folder, folders=False)
            if entry.name.startswith("agent-") and entry.name.endswith(".jsonl")
        )
    )


AGENT = Agent(NAME, places, sessions, resume="qwen --resume {id}", subagents=subagents)
