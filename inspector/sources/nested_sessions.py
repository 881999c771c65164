"""Where a folder that holds no session files of its own keeps some deeper: a copy of an agent's
folder (`projects/<project>/*.jsonl`, `sessions/YYYY/MM/DD/*.jsonl`), a dataset of folders. A
folder that is none of the person's agents' stands for the session files directly inside it, so
such a folder is refused; the line that refuses it names the first session file found below and the paths that name every folder at its
depth (`FOLDER/*/*/`), which `scan`, `report`, `search` and the app take as well.

The look is bounded: folders level by level, `DEEPEST` levels down and `MOST_FOLDERS` folders at
most, hidden ones passed over, links not followed; no file is read.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable
from pathlib import Path

from inspector.support.safe_text import neutralise, shown_name

DEEPEST = 4  # levels below the folder: Codex keeps its rollouts in `sessions/YYYY/MM/DD/`
MOST_FOLDERS = 2_000


def nested_session_file(directory: Path, is_session: Callable[[str], bool]) -> tuple[Path, int] | None:
    """The first session file (a name `is_session` takes) in the shallowest level below `directory`
    that holds one, with that level's depth (1: a subfolder); None when none is found within the
    bounds."""
    level = [directory]
    looked = 0
    for depth in range(1, DEEPEST + 1):
        below: list[Path] = []
        for folder in level:
            below.extend(_subfolders(folder))
        looked += len(below)
        if not below or looked > MOST_FOLDERS:
            return None
        for folder in below:
            found = _first_file(folder, is_session)
            if found is not None:
                return found, depth
        level = below
    return None


def hint(directory: Path, found: tuple[Path, int]) -> str:
    """What to say of the session files found below `directory`: the first, and the paths of
    every folder at its depth, written as a shell takes them."""
    first, depth = found
    folders = neutralise(f"{shlex.quote(str(directory))}/{'*/' * depth}")
    return f"its subfolders hold session files ({shown_name(first)}, ...): give those folders, as {folders}"


def _subfolders(folder: Path) -> list[Path]:
    """The folders directly inside `folder`, by name, hidden ones and links left out."""
    try:
        with os.scandir(folder) as entries:
            return sorted(
                Path(entry.path)
                for entry in entries
                if not entry.name.startswith(".") and entry.is_dir(follow_symlinks=False)
            )
    except OSError:  # a folder that cannot be listed is passed over
        return []


def _first_file(folder: Path, is_session: Callable[[str], bool]) -> Path | None:
    """The first file directly inside `folder` (by name) whose name `is_session` takes."""
    try:
        with os.scandir(folder) as entries:
            names = sorted(entry.name for entry in entries if is_session(entry.name) and entry.is_file())
    except OSError:
        return None
    return folder / names[0] if names else None
