"""What to do with the export of a session an agent keeps in its own folder (Claude Code, Codex,
Gemini CLI): the agent reads only the file it wrote there, so the export is put back in its place
before the agent can resume the session; said in a line after the export."""

from __future__ import annotations

from pathlib import Path

from inspector.model import Location
from inspector.sources.discovery import CLAUDE_CODE, CODEX, GEMINI_CLI, places
from inspector.support.safe_text import neutralise, shown_name

RESUME = {  # how each agent resumes a session, by its id
    CLAUDE_CODE: "claude --resume {id}",
    CODEX: "codex resume {id}",
    GEMINI_CLI: "gemini --resume {id}",
}


def agent_of(path: Location) -> str | None:
    """The agent that keeps `path` in its own session folder, if one does."""
    if not isinstance(path, Path):
        return None
    absolute = path.resolve()
    return next(
        (place.tool for place in places() if place.tool in RESUME and absolute.is_relative_to(place.path.resolve())),
        None,
    )


def resume_hint(path: Location, out: Location, session_id: str | None) -> str | None:
    """For the export `out` of `path`, a file an agent keeps: how to resume it with that agent
    (None when no agent keeps `path`, or when the export replaced it already)."""
    agent = agent_of(path)
    if agent is None or not isinstance(path, Path) or (isinstance(out, Path) and out.resolve() == path.resolve()):
        return None
    resume = f", then `{RESUME[agent].format(id=session_id)}`" if session_id else ""
    return neutralise(
        f"{agent} reads only its own file: copy the export over {shown_name(path)} (or export again with "
        f"“overwrite the input”, which keeps a backup){resume}"
    )
