"""A person's own agent sessions, found where the tools keep them (`inspector` with no path).

Each place below is read only when it exists; a variable moves its tool's folder when it is set
and not empty (an empty one counts as unset: nothing is ever looked for relative to the working
folder). `~` is the home folder (`Path.home()`, i.e. `$HOME`).

- Claude Code: `$CLAUDE_CONFIG_DIR/projects/<project>/*.jsonl`, default `~/.claude/projects`.
  `<project>` is the working folder with each character but letters and digits made `-`
  (`-home-me-proj`). The subagents' side chains (`<session>/subagents/agent-*.jsonl`, and
  `agent-*.jsonl` beside the sessions in older versions) are not listed. Project: the `cwd` of the
  first event that has one, within the file's first `HEAD_BYTES`; else the folder's name.
- Codex CLI: `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`, default `~/.codex`. Project:
  `session_meta.payload.cwd`, the first `cwd` of the first line, within `HEAD_BYTES`. Archived
  rollouts (`$CODEX_HOME/archived_sessions/`) and compressed ones (`*.jsonl.zst`) are not listed.
- Gemini CLI: `$GEMINI_CLI_HOME/.gemini/tmp/<project>/chats/session-*.json` and `*.jsonl`
  (`GEMINI_CLI_HOME` stands for the home folder, default `~`), and the same under
  `$GEMINI_CLI_HOME/.cache/.gemini/tmp/` (where it keeps them when run under macOS's
  `sandbox-exec`). Subagents' chats (`chats/<session>/*.jsonl`) are not listed. Project: the
  folder named in `<project>/.project_root` (written by recent versions, 0.61 among them); else
  the folder's name (a hash of the project's path in older versions).
- `llm`: `$LLM_USER_PATH/logs.db`, default the click app folder `io.datasette.llm`: on Linux in
  `$XDG_CONFIG_HOME` (default `~/.config`), on macOS in `~/Library/Application Support`, on
  Windows in `%APPDATA%` (default `~`). No project.

Work per file is bounded: one `stat` and, for Claude Code and Codex, one read of at most
`HEAD_BYTES` (Gemini's `.project_root` is read once per project folder). Nothing is written. The
date is the file's modification time; turns and findings are left to the scan. An entry that
cannot be followed (a symbolic link that loops) or a folder that cannot be listed is skipped alone,
said in one line on stderr; the rest of its folder is still read.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib.resources import files
from json.decoder import scanstring  # type: ignore[attr-defined]  # typeshed's json.decoder omits it; the module has it
from pathlib import Path

from inspector.sources import NOT_SESSIONS
from inspector.support.safe_text import one_line, shown_name

HEAD_BYTES = 16 * 1024  # where a session's working folder is looked for
VALUE_BYTES = 8 * 1024  # at most this much of it (a longer one is not taken)
CLAUDE_CODE, CODEX, GEMINI_CLI, LLM = "Claude Code", "Codex", "Gemini CLI", "llm"
LLM_APP = "io.datasette.llm"


@dataclass(frozen=True)
class FoundSession:
    """A session file (or `llm`'s database) found in a tool's folder: the tool that wrote it, its
    path, its project (a working folder, or a folder's name; "" when none), its modification time
    (seconds since the epoch) and its size in bytes."""

    tool: str
    path: Path
    project: str
    modified: float
    size: int


@dataclass(frozen=True)
class Place:
    """A folder (or, for `llm`, the database file) where a tool keeps its sessions."""

    tool: str
    path: Path


# the bundled samples (inside the package, so an installed copy has them), opened when none is found
SAMPLES = Path(str(files("inspector") / "samples"))


def kept_by_a_tool(path: Path) -> bool:
    """Whether `path` is among the bundled samples or in a folder where a tool keeps its own
    sessions: a folder the inspector writes nothing new into (the tool would list it as a session)."""
    folders = [SAMPLES] + [place.path.parent if place.tool == LLM else place.path for place in places()]
    absolute = _real(path)
    return any(absolute.is_relative_to(_real(folder)) for folder in folders)


def _real(path: Path) -> Path:
    """`path` absolute, its links followed as far as they lead (a loop stops there, not in an error)."""
    return Path(os.path.realpath(path))


def places(
    home: Path | None = None, environ: Mapping[str, str] = os.environ, platform: str = sys.platform
) -> list[Place]:
    """Every place looked in, in the order of the module's docstring, for `home` (default
    `Path.home()`), the variables of `environ` and the operating system `platform`."""
    home = home or Path.home()
    claude = _variable(environ, "CLAUDE_CONFIG_DIR") or home / ".claude"
    codex = _variable(environ, "CODEX_HOME") or home / ".codex"
    gemini = _variable(environ, "GEMINI_CLI_HOME") or home
    return [
        Place(CLAUDE_CODE, claude / "projects"),
        Place(CODEX, codex / "sessions"),
        Place(GEMINI_CLI, gemini / ".gemini" / "tmp"),
        Place(GEMINI_CLI, gemini / ".cache" / ".gemini" / "tmp"),
        Place(LLM, _llm_folder(home, environ, platform) / "logs.db"),
    ]


def discover(
    home: Path | None = None, environ: Mapping[str, str] = os.environ, platform: str = sys.platform
) -> list[FoundSession]:
    """The person's sessions in every place (see `places`), newest first (then by path)."""
    readers = {CLAUDE_CODE: _claude_code, CODEX: _codex, GEMINI_CLI: _gemini_cli, LLM: _llm}
    found = [session for place in places(home, environ, platform) for session in readers[place.tool](place.path)]
    return sorted(found, key=lambda session: (-session.modified, str(session.path)))


def shown_places(looked: list[Place], home: Path | None = None) -> str:
    """The places looked in, for a message, the home folder as `~`: 'Claude Code ~/.claude/projects,
    Codex ~/.codex/sessions, Gemini CLI ~/.gemini/tmp and ~/.cache/.gemini/tmp, llm ...'."""
    home = home or Path.home()
    by_tool: dict[str, list[str]] = {}
    for place in looked:
        by_tool.setdefault(place.tool, []).append(tilde(place.path, home))
    return ", ".join(f"{tool} {' and '.join(paths)}" for tool, paths in by_tool.items())


def tilde(path: Path, home: Path) -> str:
    """`path` with the `home` folder at its start written `~`."""
    try:
        return str(Path("~") / path.relative_to(home))
    except ValueError:
        return str(path)


def _claude_code(root: Path) -> Iterator[FoundSession]:
    for folder, _ in _entries(root, folders=True):
        for path, entry in _entries(folder, folders=False):
            if (
                entry.name.endswith(".jsonl")
                and not entry.name.startswith("agent-")
                and not entry.name.endswith(NOT_SESSIONS)
            ):
                yield _found(CLAUDE_CODE, path, entry, _first_cwd(entry.path) or folder.name)


def _codex(root: Path) -> Iterator[FoundSession]:
    for year, _ in _entries(root, folders=True):
        for month, _ in _entries(year, folders=True):
            for day, _ in _entries(month, folders=True):
                for path, entry in _entries(day, folders=False):
                    if entry.name.startswith("rollout-") and entry.name.endswith(".jsonl"):
                        yield _found(CODEX, path, entry, _first_cwd(entry.path) or "")


def _gemini_cli(root: Path) -> Iterator[FoundSession]:
    for folder, _ in _entries(root, folders=True):
        named = [
            (path, entry)
            for path, entry in _entries(folder / "chats", folders=False)
            if entry.name.startswith("session-")
            and entry.name.endswith((".json", ".jsonl"))
            and not entry.name.endswith(NOT_SESSIONS)
        ]
        if named:
            marker = _head(folder / ".project_root", VALUE_BYTES).decode("utf-8", "replace").strip()
            project = marker or folder.name
            yield from (_found(GEMINI_CLI, path, entry, project) for path, entry in named)


def _llm(database: Path) -> Iterator[FoundSession]:
    try:
        status = database.stat()
    except OSError:
        return
    if database.is_file():
        yield FoundSession(LLM, database, "", status.st_mtime, status.st_size)


def _llm_folder(home: Path, environ: Mapping[str, str], platform: str) -> Path:
    """`llm`'s user folder: `$LLM_USER_PATH`, else where `click.get_app_dir` puts `io.datasette.llm`."""
    chosen = _variable(environ, "LLM_USER_PATH")
    if chosen:
        return chosen
    if platform.startswith("win"):
        return (_variable(environ, "APPDATA") or home) / LLM_APP
    if platform == "darwin":
        return home / "Library" / "Application Support" / LLM_APP
    return (_variable(environ, "XDG_CONFIG_HOME") or home / ".config") / LLM_APP


def _variable(environ: Mapping[str, str], name: str) -> Path | None:
    value = environ.get(name, "")
    return Path(value) if value else None


def _entries(folder: Path, folders: bool) -> list[tuple[Path, os.DirEntry[str]]]:
    """The sub-folders (or the regular files) of `folder`, with their paths; none when it cannot be
    listed. An entry whose kind cannot be told (a symbolic link that loops, or that cannot be
    followed) costs only itself: it is skipped, said in one line on stderr."""
    try:
        with os.scandir(folder) as listing:
            entries = list(listing)
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as error:
        _say_skipped(folder, error)
        return []
    kept = []
    for entry in entries:
        try:
            wanted = entry.is_dir() if folders else entry.is_file()
        except OSError as error:
            _say_skipped(folder / entry.name, error)
            continue
        if wanted:
            kept.append((folder / entry.name, entry))
    return kept


def _say_skipped(path: Path, error: OSError) -> None:
    """One line on stderr for an entry of a tool's folder that cannot be read."""
    print(f"inspector: {shown_name(path)}: skipped ({one_line(error.strerror or str(error))})", file=sys.stderr)


def _found(tool: str, path: Path, entry: os.DirEntry[str], project: str) -> FoundSession:
    try:
        status = entry.stat()
        modified, size = status.st_mtime, status.st_size
    except OSError:  # gone since it was listed: the scan will say so
        modified, size = 0.0, 0
    return FoundSession(tool, path, project, modified, size)


def _head(path: Path | str, limit: int = HEAD_BYTES) -> bytes:
    """The first `limit` bytes of the file (none when it cannot be read)."""
    try:
        descriptor = os.open(path, os.O_RDONLY)
    except OSError:
        return b""
    try:
        return os.read(descriptor, limit)
    except OSError:
        return b""
    finally:
        os.close(descriptor)


def _first_cwd(path: str) -> str:
    """The value of the first `"cwd": "..."` key in the file's head ("" when there is none whole).

    Inside a JSON string every quote is escaped, so `"cwd"` followed by a colon is a key. Each
    byte of the head is looked at a bounded number of times, and only the value is decoded."""
    head = _head(path)
    start = 0
    while (at := head.find(b'"cwd"', start)) != -1:
        start = at + 5
        colon = _after_space(head, start)
        if head[colon : colon + 1] == b":":
            quote = _after_space(head, colon + 1)
            if head[quote : quote + 1] == b'"':
                try:
                    value: str = scanstring(head[quote + 1 : quote + 1 + VALUE_BYTES].decode("utf-8", "replace"), 0)[0]
                except ValueError:  # cut off by the end of the head, or badly escaped
                    return ""
                return value
    return ""


def _after_space(data: bytes, index: int) -> int:
    while index < len(data) and data[index] in b" \t\r\n":
        index += 1
    return index
