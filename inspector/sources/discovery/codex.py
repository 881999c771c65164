"""Codex CLI: `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`, default `~/.codex`.

Project: `session_meta.payload.cwd`, the first `cwd` of the first line, within `HEAD_BYTES`.
Archived rollouts (`$CODEX_HOME/archived_sessions/`) and compressed ones (`*.jsonl.zst`) are not
listed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from inspector.sources.discovery.contract import Agent, FoundSession, Surroundings
from inspector.sources.discovery.folders import entries, first_cwd, found

NAME = "Codex"


def places(around: Surroundings) -> list[Path]:
    """The sessions folder of Codex's home."""
    return [(around.variable("CODEX_HOME") or around.home / ".codex") / "sessions"]


def sessions(root: Path) -> Iterator[FoundSession]:
    """The rollouts in the folders of each day."""
    for year, _ in entries(root, folders=True):
        for month, _ in entries(year, folders=True):
            for day, _ in entries(month, folders=True):
                for path, entry in entries(day, folders=False):
                    if entry.name.startswith("rollout-") and entry.name.endswith(".jsonl"):
                        yield found(NAME, path, entry, first_cwd(entry.path) or "")


AGENT = Agent(NAME, places, sessions, resume="codex resume {id}")
