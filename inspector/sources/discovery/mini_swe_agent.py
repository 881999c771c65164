"""mini-swe-agent: `$MSWEA_GLOBAL_CONFIG_DIR/*.traj.json`; no project.

`mini` saves each run's trajectory as `last_mini_run.traj.json` in its global config folder (the
next run replaces it; a run given `-o PATH` writes elsewhere, and is not found). That folder is
`MSWEA_GLOBAL_CONFIG_DIR`, else `platformdirs.user_config_dir("mini-swe-agent")`: on Linux
`mini-swe-agent/` in `$XDG_CONFIG_HOME` (default `~/.config`), on macOS in `~/Library/Application
Support`, on Windows `mini-swe-agent\\mini-swe-agent` in `%LOCALAPPDATA%` (default
`~/AppData/Local`). The trajectory holds no working folder, so no project is named."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from inspector.sources.discovery.contract import Agent, FoundSession, Surroundings
from inspector.sources.discovery.folders import entries, found

NAME = "mini-swe-agent"
APP = "mini-swe-agent"
SUFFIX = ".traj.json"


def places(around: Surroundings) -> list[Path]:
    """mini's global config folder."""
    chosen = around.variable("MSWEA_GLOBAL_CONFIG_DIR")
    if chosen:
        return [chosen]
    if around.platform.startswith("win"):
        return [(around.variable("LOCALAPPDATA") or around.home / "AppData" / "Local") / APP / APP]
    if around.platform == "darwin":
        return [around.home / "Library" / "Application Support" / APP]
    return [(around.variable("XDG_CONFIG_HOME") or around.home / ".config") / APP]


def sessions(folder: Path) -> Iterator[FoundSession]:
    """The trajectories in the folder."""
    for path, entry in entries(folder, folders=False):
        if entry.name.endswith(SUFFIX):
            yield found(NAME, path, entry, "")


AGENT = Agent(NAME, places, sessions)
