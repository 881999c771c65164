"""A person's own agent sessions, found where the tools keep them (`inspector` with no path).

Each agent is a plugin (`contract.Agent`), one module here, listed in `AGENT_MODULES` in the order its
sessions are looked for; its module's docstring says where it keeps them and which variables move
that place. Every place is read only when it exists; a variable moves its tool's folder when it
is set and not empty. `~` is the home folder (`Path.home()`, i.e. `$HOME`).

Work per file is bounded: one `stat` and at most one read of a file's head (`HEAD_BYTES`).
Nothing is written. The date is the file's modification time; turns and findings are left to the
scan. An entry that cannot be followed (a symbolic link that loops) or a folder that cannot be
listed is skipped alone, said in one line on stderr; the rest of its folder is still read.

A new agent is a module here ending with one `Agent` and its line in `AGENT_MODULES`. The agents'
modules are imported when `AGENTS` (or a function that looks in every place) is first used: a
scan of one session file asks one agent alone whether it keeps the session's subagents apart.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import NamedTuple

from inspector.sources.discovery.contract import Agent, FoundSession, Place, Surroundings
from inspector.sources.discovery.folders import HEAD_BYTES
from inspector.support.lazy_registry import registry_attribute

__all__ = ["AGENTS", "HEAD_BYTES", "SAMPLES", "Agent", "FoundSession", "Place"]

# The agents, by module, in the order their sessions are looked for.
AGENT_MODULES = (
    "claude_code",
    "codex",
    "gemini_cli",
    "qwen_code",
    "copilot_cli",
    "continue_cli",
    "cline",
    "cline_vscode",
    "roo_code",
    "kilo_code",
    "llm",
    "opencode",
    "opencode_storage",
    "kilo",
    "mini_swe_agent",
    "goose",
    "crush",
    "amp",
    "openhands",
    "pi",
    "factory_droid",
    "cursor_cli",
    "kimi_cli",
    "kimi_code",
)
AGENTS: tuple[Agent, ...]  # every agent's plugin, imported when first used (`__getattr__`)

# the bundled samples (inside the package, so an installed copy has them), opened when none is found
SAMPLES = Path(__file__).parents[2] / "samples"


class _Registry(NamedTuple):
    agents: tuple[Agent, ...]
    by_name: dict[str, Agent]


@cache
def _registry() -> _Registry:
    agents = tuple(agent_of_module(module) for module in AGENT_MODULES)
    return _Registry(agents, {agent.name: agent for agent in agents})


__getattr__ = registry_attribute(globals(), __name__, {"AGENTS": "agents"}, _registry)


def agent_of_module(module: str) -> Agent:
    """The agent whose plugin is the module `module` of `AGENT_MODULES` (`claude_code`), imported
    alone."""
    if module not in AGENT_MODULES:
        raise ValueError(f"no agent's module is named {module!r}")
    agent: Agent = import_module(f"{__name__}.{module}").AGENT
    return agent


def agent_named(tool: str) -> Agent:
    """The agent whose sessions are `FoundSession`s of `tool`."""
    return _registry().by_name[tool]


def places(
    home: Path | None = None, environ: Mapping[str, str] = os.environ, platform: str = sys.platform
) -> list[Place]:
    """Every place looked in, agent by agent in the order of `AGENTS`, for `home` (default
    `Path.home()`), the variables of `environ` and the operating system `platform`."""
    around = Surroundings(home or Path.home(), environ, platform)
    return [Place(agent.name, path) for agent in _registry().agents for path in agent.places(around)]


def discover(
    home: Path | None = None, environ: Mapping[str, str] = os.environ, platform: str = sys.platform
) -> list[FoundSession]:
    """The person's sessions in every place (see `places`), newest first (then by path)."""
    by_name = _registry().by_name
    found = [
        session for place in places(home, environ, platform) for session in by_name[place.tool].sessions(place.path)
    ]
    return sorted(found, key=lambda session: (-session.modified, str(session.path)))


def subagents_of(found: FoundSession) -> tuple[Path, ...]:
    """The transcripts of the subagents the session ran, which its tool keeps beside it (none
    for a tool that keeps none apart)."""
    return agent_named(found.tool).subagents(found.path)


def agents_keeping(path: Path, among: Sequence[Agent] | None = None) -> list[Agent]:
    """The agents (of `among`, default every one) in one of whose places the session file `path`
    is kept, in the order of `AGENTS`."""
    absolute = real_path(path)
    around = Surroundings(Path.home(), os.environ, sys.platform)
    return [
        agent
        for agent in (_registry().agents if among is None else among)
        for place in agent.places(around)
        if absolute.is_relative_to(real_path(place))
    ]


def subagents_beside(path: Path, agent_module: str | None = None) -> tuple[Path, ...]:
    """The transcripts of the subagents the session file `path` ran, when it is kept in the place
    of an agent that keeps them beside its sessions (a copy kept elsewhere names none: the layouts
    are read only where their agent wrote them). `agent_module`: the one agent to ask (its module,
    `claude_code`), when the file's format says which agent wrote it; else every agent is."""
    among = None if agent_module is None else [agent_of_module(agent_module)]
    return _subagents_by(agents_keeping(path, among), path)


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
    folders = [SAMPLES] + [place.path.parent if agent_named(place.tool).history else place.path for place in places()]
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
