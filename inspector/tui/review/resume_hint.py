"""What to do with the export of a session an agent keeps in its own folder (an agent whose
discovery plugin names a resume command): the agent reads only the file it wrote there, so the
export is put back in its place before the agent can resume the session; said in a line after the
export."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from inspector.model import Location
from inspector.sources.files.opencode_storage import is_storage_session, storage_folder
from inspector.support.safe_text import neutralise, shown_name

if TYPE_CHECKING:
    from inspector.sources.discovery import Agent


def _agent_of(path: Location) -> Agent | None:
    """The agent that keeps `path` in its own session folder and resumes it from there, if one does."""
    from inspector.sources.discovery import agents_keeping  # (every agent's places: imported after an export)

    if not isinstance(path, Path):
        return None
    return next((agent for agent in agents_keeping(path) if agent.resume), None)


def resume_hint(path: Location, out: Location, session_id: str | None) -> str | None:
    """For the export `out` of `path`, a file an agent keeps: how to resume it with that agent
    (None when no agent keeps `path`, or when the export replaced it already; no command for a
    subagent's session, which the agent does not resume)."""
    agent = _agent_of(path)
    if agent is None or not isinstance(path, Path) or (isinstance(out, Path) and out.resolve() == path.resolve()):
        return None
    resumable = session_id and "/" not in session_id  # (`ID/agent-X`: a subagent's, which no command resumes)
    resume = f", then `{agent.resume.format(id=session_id)}`" if resumable and agent.resume else ""
    if is_storage_session(path):  # the export is a storage folder holding the session's files
        put_back = f"copy the export's files into {shown_name(storage_folder(path))}"
    else:
        put_back = f"copy the export over {shown_name(path)}"
    return neutralise(
        f"{agent.name} reads only its own file: {put_back} (or export again with "
        f"“overwrite the input”, which keeps a backup){resume}"
    )
