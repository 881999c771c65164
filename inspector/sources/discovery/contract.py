"""The contract of an agent's discovery plugin: where an agent keeps its sessions (`Agent.places`)
and how the sessions in one such place are listed (`Agent.sessions`), with what is found
(`FoundSession`) and where it was looked for (`Place`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class FoundSession:
    """A session file (or a history database) found in a tool's folder: the tool that wrote it, its
    path, its project (a working folder, or a folder's name; "" when none), its modification time
    (seconds since the epoch) and its size in bytes."""

    tool: str
    path: Path
    project: str
    modified: float
    size: int


@dataclass(frozen=True)
class Place:
    """A folder (or, for a history database, the database file) where a tool keeps its sessions."""

    tool: str
    path: Path


@dataclass(frozen=True)
class Surroundings:
    """What decides where the tools keep their sessions: the home folder, the environment's
    variables and the operating system (`sys.platform`)."""

    home: Path
    environ: Mapping[str, str]
    platform: str

    def variable(self, name: str) -> Path | None:
        """The folder a variable names; None when it is unset or empty (an empty one counts as
        unset: nothing is ever looked for relative to the working folder)."""
        value = self.environ.get(name, "")
        return Path(value) if value else None


@dataclass(frozen=True)
class Agent:
    """One agent's plugin: its name (as the person knows the tool), the places it keeps sessions
    in for given surroundings, the sessions in one place, the command that resumes a session by its
    id (`{id}` stands for it; None when the tool resumes none from a file), whether each place
    is one history database whose conversations are listed as rows rather than one session, and
    the transcripts of the subagents a session (its path) ran that the tool keeps in files of their
    own beside it (looked for only when asked: listing the sessions does not wait for them)."""

    name: str
    places: Callable[[Surroundings], list[Path]]
    sessions: Callable[[Path], Iterator[FoundSession]]
    resume: str | None = None
    history: bool = False
    subagents: Callable[[Path], tuple[Path, ...]] = lambda _session: ()
