"""The sessions the person's agents keep in a folder given by its path: an agent's own folder
(`~/.claude`, `~/.codex`, `~/.claude/projects`), a folder holding several (`~`,
`~/.local/share`), or a folder inside an agent's place (`~/.codex/sessions/2026/11`). Each agent's
sessions are listed as `inspector` with no path lists them (`discover`), so the other files those
folders hold (settings, prompt histories, to-do lists) are not taken for sessions.

The places are the person's own, as `discover` finds them (the home folder and the variables that
move them). A copy of an agent's folder elsewhere, which holds no session file of its own or only
the files the agent keeps beside its place (`only_agents_own_files`: a `~/.claude` copied under
another name), is recognised by the names of the place's last folders (`sessions_of_a_copy`).
"""

from __future__ import annotations

from pathlib import Path

from inspector.sources.discovery import FoundSession, agent_named, places, real_path, subagents_of

COPIED_LEVELS = 2  # the place's last folders a copy is recognised by (`storage/session`, `.claude/projects`)
# The files the agents keep in their own folders beside the folder of their sessions (settings,
# prompt histories, sign-ins), named as a session file may be: a folder holding only these is a copy
# of an agent's own folder, renamed, whose sessions are in the place inside it.
AGENTS_OWN_FILES = frozenset(
    {
        "settings.json",  # Claude Code, Gemini CLI, Qwen Code
        "settings.local.json",  # Claude Code
        "history.jsonl",  # Claude Code's and Codex's prompt histories
        "auth.json",  # Codex
        "version.json",  # Codex
        "oauth_creds.json",  # Gemini CLI, Qwen Code
        "google_accounts.json",  # Gemini CLI
        "config.json",  # Copilot CLI
        "mcp-config.json",  # Copilot CLI
    }
)


def places_within(folder: Path) -> bool:
    """Whether `folder` is one of the agents' places or holds one (at any depth)."""
    inside = real_path(folder)
    return any(real_path(place.path).is_relative_to(inside) for place in places())


def found_kept_in(folder: Path) -> list[FoundSession]:
    """The sessions the agents keep in their places at or under `folder`, or under `folder` when it
    is inside a place, as `discover` finds them: newest first (then by path). [] when `folder` is
    neither."""
    inside = real_path(folder)
    found: dict[Path, FoundSession] = {}
    for place in places():
        where = real_path(place.path)
        if not (where.is_relative_to(inside) or inside.is_relative_to(where)):
            continue
        for session in agent_named(place.tool).sessions(place.path):
            if where.is_relative_to(inside) or real_path(session.path).is_relative_to(inside):
                found.setdefault(session.path, session)
    return sorted(found.values(), key=lambda session: (-session.modified, str(session.path)))


def sessions_kept_in(folder: Path) -> list[Path]:
    """The files of the sessions `found_kept_in` finds, each followed by its subagents' transcripts."""
    found = found_kept_in(folder)
    return list(dict.fromkeys(path for session in found for path in (session.path, *subagents_of(session))))


def only_agents_own_files(files: list[Path]) -> bool:
    """Whether every one of a folder's session files is one of the files an agent keeps in its own
    folder (`AGENTS_OWN_FILES`): then the folder, if it holds an agent's place, is a copy of that
    agent's folder, and those files are no sessions."""
    return all(path.name in AGENTS_OWN_FILES for path in files)


def sessions_of_a_copy(folder: Path) -> list[Path]:
    """The sessions `folder` holds laid out as an agent keeps them in its place, when it is a copy
    of that place (a `projects` folder of Claude Code's, a `sessions` folder of Codex's) or of a
    folder holding it (a copy of `~/.claude`, of OpenCode's `storage`): the place is looked for by
    the names of its last `COPIED_LEVELS` folders, and its sessions listed as its agent lists them
    (by path); [] when no agent's layout holds any."""
    found: dict[Path, None] = {}
    for place in places():
        agent = agent_named(place.tool)
        if agent.history:  # a database: `folder`'s own files name it
            continue
        names = place.path.parts
        for levels in range(1, min(COPIED_LEVELS, len(names) - 1) + 1):
            for root in _copied_places(folder, names[-levels:]):
                found.update(dict.fromkeys(session.path for session in agent.sessions(root)))
    return sorted(found)


def _copied_places(folder: Path, names: tuple[str, ...]) -> list[Path]:
    """Where in `folder` a place whose last folders are `names` is, were `folder` a copy of that
    place or of a folder holding it."""
    inside = folder.joinpath(*names)
    roots = [inside] if inside.is_dir() else []
    if folder.parts[-len(names) :] == names:
        roots.append(folder)
    return roots
