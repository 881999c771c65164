"""Kimi CLI: `$KIMI_SHARE_DIR/sessions/<work-dir hash>/<session id>/context.jsonl`, default `~/.kimi`.

Each session is a folder named by its id, holding the context file `kimi --resume` restores (and
the UI's `wire.jsonl`, not listed). No project: the folder above is a hash of the working folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from inspector.sources.discovery.contract import Agent, FoundSession, Surroundings
from inspector.sources.discovery.folders import entries, found_file

NAME = "Kimi CLI"
CONTEXT = "context.jsonl"


def places(around: Surroundings) -> list[Path]:
    """The sessions folder of Kimi CLI's share folder."""
    return [(around.variable("KIMI_SHARE_DIR") or around.home / ".kimi") / "sessions"]


def sessions(root: Path) -> Iterator[FoundSession]:
    """The context file of each session folder of each working folder's."""
    for work_dir, _ in entries(root, folders=True):
        for session, _ in entries(work_dir, folders=True):
            context = found_file(NAME, session / CONTEXT)
            if context is not None:
                yield context


AGENT = Agent(NAME, places, sessions, resume="kimi --session {id}")
