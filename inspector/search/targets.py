"""The session files the index covers: the person's own, where each agent keeps them
(`inspector.sources.discovery`), their subagents' transcripts among them, with the agent and the
project discovery names; and the paths given (a folder stands for the session files directly in
it), whose agent is unknown, and the chat histories in PostgreSQL servers' databases given by
their URLs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from inspector.errors import InspectorError
from inspector.model import Location, ServerUrl
from inspector.sources import folder_sessions, no_sessions_in
from inspector.sources.discovery import discover, subagents_of
from inspector.support.safe_text import shown_name


class Target(NamedTuple):
    """A session file (or a server's database) to index: its path (its URL), the agent that wrote
    it and its project ('' when unknown)."""

    path: Location
    agent: str
    project: str


def index_targets(paths: Sequence[Location] = ()) -> list[Target]:
    """The person's own session files (each followed by its subagents'), then those of `paths`
    (each file once, by its absolute path; each server's database once); a path that is not there
    is refused in one line."""
    chosen: dict[str, Target] = {}
    for found in discover():
        for path in (found.path.absolute(), *(subagent.absolute() for subagent in subagents_of(found))):
            chosen.setdefault(str(path), Target(path, found.tool, found.project))
    for given in paths:
        for file in _files(given):
            chosen.setdefault(str(file), Target(file, "", ""))
    return list(chosen.values())


def _files(given: Location) -> list[Location]:
    if isinstance(given, ServerUrl):
        return [given]
    if given.is_dir():
        files = folder_sessions(given)
        if not files:
            raise InspectorError(no_sessions_in(given))
        return [path.absolute() for path in files]
    if not given.is_file():
        raise InspectorError(f"{shown_name(given)}: no such file or directory")
    return [given.absolute()]
