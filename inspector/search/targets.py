"""The session files the index covers: the person's own, where each agent keeps them
(`inspector.sources.discovery`), with the agent and the project discovery names; and the paths
given (a folder stands for the session files directly in it), whose agent is unknown."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from inspector.errors import InspectorError
from inspector.model import ServerUrl
from inspector.sources import session_files
from inspector.sources.discovery import discover
from inspector.support.safe_text import shown_name


class Target(NamedTuple):
    """A session file to index: its path, the agent that wrote it and its project ('' when unknown)."""

    path: Path
    agent: str
    project: str


def index_targets(paths: Sequence[Path | ServerUrl] = ()) -> list[Target]:
    """The person's own session files, then those of `paths` (each file once, by its absolute
    path); a path that is not there, or a server's database, is refused in one line."""
    chosen: dict[Path, Target] = {}
    for found in discover():
        path = found.path.absolute()
        chosen.setdefault(path, Target(path, found.tool, found.project))
    for given in paths:
        for path in _files(given):
            chosen.setdefault(path, Target(path, "", ""))
    return list(chosen.values())


def _files(given: Path | ServerUrl) -> list[Path]:
    if isinstance(given, ServerUrl):
        raise InspectorError(f"{given}: search indexes session files and SQLite histories, not a server's database")
    if given.is_dir():
        return [path.absolute() for path in session_files(given)]
    if not given.is_file():
        raise InspectorError(f"{shown_name(given)}: no such file or directory")
    return [given.absolute()]
