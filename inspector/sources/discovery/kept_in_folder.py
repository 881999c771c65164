"""The sessions the person's agents keep in a folder given by its path: an agent's own folder
(`~/.claude`, `~/.codex`, `~/.claude/projects`), a folder holding several (`~`,
`~/.local/share`), or a folder inside an agent's place (`~/.codex/sessions/2026/11`). Each agent's
sessions are listed as `inspector` with no path lists them (`discover`), so the other files those
folders hold (settings, prompt histories, to-do lists) are not taken for sessions.

The places are the person's own, as `discover` finds them (the home folder and the variables that
move them): a copy of an agent's folder elsewhere is read as any folder is, by its files.
"""

from __future__ import annotations

import os
from pathlib import Path

from inspector.sources.discovery import FoundSession, agent_named, places, subagents_of


def places_within(folder: Path) -> bool:
    """Whether `folder` is one of the agents' places or holds one (at any depth)."""
    inside = _real(folder)
    return any(_real(place.path).is_relative_to(inside) for place in places())


def sessions_kept_in(folder: Path) -> list[Path]:
    """The sessions the agents keep in their places at or under `folder`, or under `folder` when it
    is inside a place; newest first (then by path), each followed by its subagents' transcripts.
    [] when `folder` is neither."""
    inside = _real(folder)
    found: dict[Path, FoundSession] = {}
    for place in places():
        where = _real(place.path)
        if not (where.is_relative_to(inside) or inside.is_relative_to(where)):
            continue
        for session in agent_named(place.tool).sessions(place.path):
            if where.is_relative_to(inside) or _real(session.path).is_relative_to(inside):
                found.setdefault(session.path, session)
    newest = sorted(found.values(), key=lambda session: (-session.modified, str(session.path)))
    return list(dict.fromkeys(path for session in newest for path in (session.path, *subagents_of(session))))


def _real(path: Path) -> Path:
    """`path` absolute, its links followed as far as they lead (a loop stops there, not in an error)."""
    return Path(os.path.realpath(path))
