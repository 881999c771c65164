"""Kimi Code: `$KIMI_CODE_HOME/sessions/<work dir>/session_<uuid>/agents/main/wire.jsonl`, default
`~/.kimi-code`.

Each session is a folder holding its agents' wire files (`agents/main/` the conversation `kimi -r`
resumes) and a `state.json` whose `cwd` is the project. The subagents' wire files beside the main
one (`agents/agent-N/wire.jsonl`) are its subagents (`Agent.subagents`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from inspector.sources.discovery.contract import Agent, FoundSession, Surroundings
from inspector.sources.discovery.folders import entries, first_cwd, found_file

NAME = "Kimi Code"
WIRE = Path("agents") / "main" / "wire.jsonl"


def places(around: Surroundings) -> list[Path]:
    """The sessions folder of Kimi Code's home folder."""
    return [(around.variable("KIMI_CODE_HOME") or around.home / ".kimi-code") / "sessions"]


def sessions(root: Path) -> Iterator[FoundSession]:
    """The main agent's wire file of each session folder of each working folder's."""
    for work_dir, _ in entries(root, folders=True):
        for session, entry in entries(work_dir, folders=True):
            if not entry.name.startswith("session_"):
                continue
            wire = found_file(NAME, session / WIRE)
            if wire is not None:
                yield replace(wire, project=first_cwd(str(session / "state.json")))


def subagents(wire: Path) -> tuple[Path, ...]:
    """The subagents' wire files beside the main agent's `wire`, by their folders' names."""
    agents = entries(wire.parent.parent, folders=True)
    wires = (folder / "wire.jsonl" for folder, entry in sorted(agents) if entry.name.startswith("agent-"))
    return tuple(wire for wire in wires if wire.is_file())


AGENT = Agent(NAME, places, sessions, resume="kimi -r {id}", subagents=subagents)
