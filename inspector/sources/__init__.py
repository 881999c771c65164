"""Where sessions are kept, behind one interface (`inspector.sources.base.Source`): session files
(`files/`, read as the formats of `formats/`, one module per format), and chat histories in SQL
databases, read as the schemas of `schemas/` (one module per schema, with what every SQL
database shares in `sql/`): in SQLite files (`sqlite/`) or on a PostgreSQL server (`postgres/`).

`open_source` opens a location (`inspector.model.Location`) as the kind of storage it is: a server's
database by its URL (`postgresql://...`), a database file by its name or SQLite's header (or when
`--table/--map` name a table), else a session file whose format is recognised from its content.
The two registries of formats are `formats.FORMATS` (files) and `schemas.SCHEMAS` (databases).
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING

from inspector.model import Location, ServerUrl, Session
from inspector.sources.location import SUFFIXES, is_database, location
from inspector.support.safe_text import shown_name

if TYPE_CHECKING:
    from inspector.sources.base import Source
    from inspector.sources.formats import FORMATS, render_sessions

__all__ = [
    "FORMATS",
    "Source",
    "folder_sessions",
    "format_names",
    "load_sessions",
    "location",
    "open_source",
    "render_sessions",
    "session_files",
]

SESSION_SUFFIXES: tuple[str, ...] = (".json", ".jsonl") + SUFFIXES
SESSION_SUFFIXES += (".eval",)  # Inspect AI's zip logs (`files.inspect_eval`)
SESSION_SUFFIXES += (".traj",)  # SWE-agent's trajectories (JSON)
# What fix and review write beside a session (an audit was `.audit.jsonl` in older versions: an
# agent that lists or cleans up every `.jsonl` of its folder took it for one of its sessions)
NOT_SESSIONS = (".audit.ndjson", ".audit.jsonl", ".review.json", ".baseline.ndjson", ".baseline.json")

# The names imported from their modules on first use, so that importing one format's module
# (`inspector.sources.formats.claude_code`, which imports this package first) imports no other
# format, nor the interface of every storage.
_DEFINED_IN = {
    "FORMATS": "inspector.sources.formats",
    "render_sessions": "inspector.sources.formats",
    "Source": "inspector.sources.base",
}


def __getattr__(name: str) -> object:
    """`FORMATS`, `render_sessions` or `Source`, imported from its module on first use."""
    if name not in _DEFINED_IN:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(_DEFINED_IN[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_DEFINED_IN})


def folder_sessions(directory: Path) -> list[Path]:
    """The sessions a folder given by its path stands for: when it is one of the folders where the
    person's agents keep their sessions, or holds one (`~/.claude`, `~/.codex`, `~`), every session
    they keep there, their other files (settings, prompt histories) left out
    (`discovery.kept_in_folder`), or its session files when they keep none there; else its session
    files (`session_files`); else, for a folder inside an agent's place (`~/.codex/sessions/2026`),
    the sessions under it; else, for a copy of an agent's folder (a `projects` folder of Claude
    Code's, a `~/.claude` copied under another name beside its settings), the sessions laid out in
    it as the agent keeps them."""
    from inspector.sources.discovery import kept_in_folder as kept_in  # a folder's only

    if kept_in.places_within(directory):
        return kept_in.sessions_kept_in(directory) or session_files(directory)
    files = session_files(directory)
    if files and not kept_in.only_agents_own_files(files):
        return files
    return kept_in.sessions_kept_in(directory) or kept_in.sessions_of_a_copy(directory) or files


def no_sessions_in(directory: Location) -> str:
    """The line saying that `folder_sessions` found nothing in `directory`, and where session files
    are below it when some are (`nested_sessions`)."""
    from inspector.sources.nested_sessions import hint, nested_session_file

    kinds = ", ".join(f"*{suffix}" for suffix in SESSION_SUFFIXES)
    line = (
        f"{shown_name(directory)}: no session files ({kinds}, Aider's logs) in this directory, nor an agent's sessions"
    )
    if isinstance(directory, Path) and (found := nested_session_file(directory, _may_be_a_session)):
        return f"{line}; {hint(directory, found)}"
    return line


def _may_be_a_session(name: str) -> bool:
    """Whether a file of this name may be a session (by its suffix; not an audit or a review)."""
    return name.endswith(SESSION_SUFFIXES) and not name.endswith(NOT_SESSIONS)


def open_source(
    path: Location | str,
    format_name: str | None = None,
    table: str | None = None,
    mapping: dict[str, str] | None = None,
) -> Source:
    """The storage at `path` (a file, or a server's database: a `ServerUrl`, or its URL as a
    string: `location`), read as `format_name` when given (else recognised); `table` and `mapping` name a
    database table of any other schema."""
    path = location(path) if isinstance(path, str) else path
    if isinstance(path, ServerUrl):
        from inspector.sources.postgres.history import (
            PostgresHistory,
        )  # loaded only for a server: a file's scan never needs it

        return PostgresHistory(path, format_name, table, mapping)
    path = Path(path)
    if table is not None or mapping or is_database(path):
        from inspector.sources.sqlite.history import SqliteHistory  # loaded only for a database, as above

        return SqliteHistory(path, format_name, table, mapping)
    from inspector.sources.files.session_file import SessionFile  # with every format: not for one format alone

    return SessionFile(path, format_name)


def load_sessions(path: Path, format_name: str | None = None) -> list[Session]:
    """Every session kept at `path` (a history's conversations all read: for small ones and tests)."""
    return list(open_source(path, format_name).sessions())


def format_names() -> list[str]:
    """The names `--format` accepts (file formats, then SQLite schemas)."""
    from inspector.sources.formats import format_names as file_format_names  # imports no format
    from inspector.sources.schemas import schema_names  # imports no schema

    return file_format_names() + schema_names()


def session_files(directory: Path) -> list[Path]:
    """The session files directly inside `directory`, sorted, each followed by the transcripts of
    the subagents it ran when the folder is where an agent keeps its sessions and them beside
    (`discovery.with_subagents`: Claude Code's `<session>/subagents/`, ...). Audit logs and reviews
    are left out, and the files an agent keeps beside a session of the folder (`companion_files`).
    A Markdown or text file is one only when a format claims what it starts with (an Aider log): a
    folder's other text files (a README, notes) are left out too."""
    from inspector.sources.companion_files import companions
    from inspector.sources.discovery import with_subagents  # the agents' places: read for a folder only
    from inspector.sources.files.text_logs import is_text_log, is_text_log_name  # loads the formats

    files = [p for p in Path(directory).iterdir() if p.is_file() and not p.name.endswith(NOT_SESSIONS)]
    files = [p for p in files if p.suffix in SESSION_SUFFIXES or (is_text_log_name(p.name) and is_text_log(p))]
    beside = companions(files)
    return with_subagents(Path(directory), sorted(p for p in files if p not in beside))
