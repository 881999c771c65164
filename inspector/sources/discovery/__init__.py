"""A person's own agent sessions, found where the tools keep them (`inspector` with no path).

Each agent is a plugin (`contract.Agent`), one module here, listed in `AGENTS` in the order its
sessions are looked for; its module's docstring says where it keeps them and which variables move
that place. Every place is read only when it exists; a variable moves its tool's folder when it
is set and not empty. `~` is the home folder (`Path.home()`, i.e. `$HOME`).

Work per file is bounded: one `stat` and at most one read of a file's head (`HEAD_BYTES`).
Nothing is written. The date is the file's modification time; turns and findings are left to the
scan. An entry that cannot be followed (a symbolic link that loops) or a folder that cannot be
listed is skipped alone, said in one line on stderr; the rest of its folder is still read.

A new agent is a module here ending with one `Agent` and its line in `AGENTS`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from importlib.resources import files
from pathlib import Path

from inspector.sources.discovery import (
    amp,
    claude_code,
    cline,
    cline_vscode,
    codex,
    continue_cli,
    copilot_cli,
    crush,
    cursor_cli,
    factory_droid,
    gemini_cli,
    goose,
    kilo,
    kilo_code,
    kimi_cli,
    kimi_code,
    llm,
    mini_swe_agent,
    opencode,
    opencode_storage,
    openhands,
    pi,
    qwen_code,
    roo_code,
)
from inspector.sources.discovery.contract import Agent, FoundSession, Place, Surroundings
from inspector.sources.discovery.folders import HEAD_BYTES

__all__ = ["AGENTS", "HEAD_BYTES", "SAMPLES", "Agent", "FoundSession", "Place"]

AGENTS: tuple[Agent, ...] = (
    claude_code.AGENT,
    codex.AGENT,
    gemini_cli.AGENT,
    qwen_code.AGENT,
    copilot_cli.AGENT,
    continue_cli.AGENT,
    cline.AGENT,
    cline_vscode.AGENT,
    roo_code.AGENT,
    kilo_code.AGENT,
    llm.AGENT,
    opencode.AGENT,
    opencode_storage.AGENT,
    kilo.AGENT,
    mini_swe_agent.AGENT,
    goose.AGENT,
    crush.AGENT,
    amp.AGENT,
    openhands.AGENT,
    pi.AGENT,
    factory_droid.AGENT,
    cursor_cli.AGENT,
    kimi_cli.AGENT,
    kimi_code.AGENT,
)
_BY_NAME = {agent.name: agent for agent in AGENTS}

# the bundled samples (inside the package, so an installed copy has them), opened when none is found
SAMPLES = Path(str(files("inspector") / "samples"))


def agent_named(tool: str) -> Agent:
    """The agent whose sessions are `FoundSession`s of `tool`."""
    return _BY_NAME[tool]


def places(
    home: Path | None = None, environ: Mapping[str, str] = os.environ, platform: str = sys.platform
) -> list[Place]:
    """Every place looked in, agent by agent in the order of `AGENTS`, for `home` (default
    `Path.home()`), the variables of `environ` and the operating system `platform`."""
    around = Surroundings(home or Path.home(), environ, platform)
    return [Place(agent.name, path) for agent in AGENTS for path in agent.places(around)]


def discover(
    home: Path | None = None, environ: Mapping[str, str] = os.environ, platform: str = sys.platform
) -> list[FoundSession]:
    """The person's sessions in every place (see `places`), newest first (then by path)."""
    found = [
        session for place in places(home, environ, platform) for session in _BY_NAME[place.tool].sessions(place.path)
    ]
    return sorted(found, key=lambda session: (-session.modified, str(session.path)))


def subagents_of(found: FoundSession) -> tuple[Path, ...]:
    """The transcripts of the subagents the session ran, which its tool keeps beside it (none
    for a tool that keeps none apart)."""
    return _BY_NAME[found.tool].subagents(found.path)


def agents_keeping(path: Path) -> list[Agent]:
    """The agents in one of whose places the session file `path` is kept, in the order of `AGENTS`."""
    absolute = real_path(path)
    return [_BY_NAME[place.tool] for place in places() if absolute.is_relative_to(real_path(place.path))]


def subagents_beside(path: Path) -> tuple[Path, ...]:
    """The transcripts of the subagents the session file `path` ran, when it is kept in the place
    of an agent that keeps them beside its sessions (a copy kept elsewhere names none: the layouts
    are read only where their agent wrote them)."""
    return _subagents_by(agents_keeping(path), path)


def with_subagents(folder: Path, sessions: Sequence[Path]) -> list[Path]:
    """The session files of `folder`, each followed by the transcripts of the subagents it ran when
    the folder is in the place of an agent that keeps them beside its sessions (as
    `subagents_beside` reads them; the places are looked at once for the folder). A transcript
    among `sessions` (older Claude Code kept them beside its sessions) moves after its session,
    listed once."""
    agents = agents_keeping(folder)
    if not agents:
        return list(sessions)
    followed = {path: _subagents_by(agents, path) for path in sessions}
    theirs = {subagent for subagents in followed.values() for subagent in subagents}
    listed = [each for path in sessions if path not in theirs for each in (path, *followed[path])]
    return list(dict.fromkeys(listed))


def _subagents_by(agents: list[Agent], path: Path) -> tuple[Path, ...]:
    for agent in agents:
        found = agent.subagents(path)
        if found:
            return found
    return ()


def kept_by_a_tool(path: Path) -> bool:
    """Whether `path` is among the bundled samples or in a folder where a tool keeps its own
    sessions: a folder the inspector writes nothing new into (the tool would list it as a session)."""
    folders = [SAMPLES] + [place.path.parent if _BY_NAME[place.tool].history else place.path for place in places()]
    absolute = real_path(path)
    return any(absolute.is_relative_to(real_path(folder)) for folder in folders)


def shown_places(looked: list[Place], home: Path | None = None) -> str:
    """The places looked in, for a message, the home folder as `~`: 'Claude Code ~/.claude/projects,
    Codex ~/.codex/sessions, Gemini CLI ~/.gemini/tmp and ~/.cache/.gemini/tmp, Qwen Code ...'."""
    home = home or Path.home()
    by_tool: dict[str, list[str]] = {}
    for place in looked:
        by_tool.setdefault(place.tool, []).append(tilde(place.path, home))
    return ", ".join(f"{tool} {_listed(paths)}" for tool, paths in by_tool.items())


def _listed(paths: list[str]) -> str:
    """One or two places by name; more (an extension in each of five editors) as the first and a count."""
    return " and ".join(paths) if len(paths) <= 2 else f"{paths[0]} and {len(paths) - 1} more"


def tilde(path: Path, home: Path) -> str:
    """`path` with the `home` folder at its start written `~`."""
    try:
        return str(Path("~") / path.relative_to(home))
    except ValueError:
        return str(path)


def real_path(path: Path) -> Path:
    """`path` absolute, its links followed as far as they lead (a loop stops there, not in an error)."""
    return Path(os.path.realpath(path))
