"""Cursor CLI (`cursor-agent`): `~/.cursor/chats/<md5 of the working folder>/<agent id>/store.db`,
one history database a chat (its one conversation listed as a row). The project is not told: the
folder is named by a hash of the working folder. No variable moves the folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from inspector.sources.discovery.contract import Agent, FoundSession, Surroundings
from inspector.sources.discovery.folders import entries
from inspector.sources.discovery.opencode import history

NAME = "Cursor CLI"
STORE = "store.db"


def places(around: Surroundings) -> list[Path]:
    """The chats folder of Cursor's home folder."""
    return [around.home / ".cursor" / "chats"]


def sessions(root: Path) -> Iterator[FoundSession]:
    """Each chat's store, in each working folder's folder, dated by its last write."""
    for workspace, _ in entries(root, folders=True):
        for chat, _ in entries(workspace, folders=True):
            yield from history(NAME, chat / STORE)


AGENT = Agent(NAME, places, sessions, resume="cursor-agent --resume {id}", history=True)
