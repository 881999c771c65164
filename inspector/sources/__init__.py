"""The session formats that are plain files, and loading and saving through them.

Adding a format means adding a module with the contract in `base` and listing it in `ADAPTERS`.
Detection asks each adapter in order whether a file has its shape; `--format` skips the asking.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Iterator

from inspector.errors import InspectorError
from inspector.sources.files import anthropic, gemini, openai_chat, session_dump
from inspector.sources.sqlite import database as sqlite_db, history as sqlite_history
from inspector.sources.files.document import read_document, write_text_atomic
from inspector.support.gc_pause import collector_paused
from inspector.model import Session

# Most specific shapes first: a plain `{"messages": [...]}` is OpenAI unless it shows Anthropic's blocks.
ADAPTERS: dict[str, ModuleType] = {
    module.NAME: module for module in (session_dump, gemini, anthropic, openai_chat)
}

SESSION_SUFFIXES = (".json", ".jsonl") + sqlite_db.SUFFIXES
NOT_SESSIONS = (".audit.jsonl", ".review.json")  # what fix and review write beside a session


def format_names() -> list[str]:
    """The names `--format` accepts (file formats, then SQLite schemas)."""
    return list(ADAPTERS) + list(sqlite_history.SCHEMAS)


def load_sessions(path: Path, format_name: str | None = None) -> list[Session]:
    """Every session in the file at `path`, detecting its format unless `format_name` is given.

    Adapters check the shapes they rely on; a record of a shape none of them foresaw (a list where
    a string belongs, say) still ends as a one-line `InspectorError`, never a traceback.
    """
    if sqlite_db.is_database(path):
        sqlite_db.check_header(Path(path))
        return list(sqlite_history.iter_sessions(Path(path), format_name))
    with collector_paused():
        try:
            return _load(Path(path), format_name)
        except (TypeError, KeyError, AttributeError, IndexError, ValueError) as exc:
            raise InspectorError(f"{path}: a record has a shape this format does not allow "
                                 f"({type(exc).__name__}: {exc})") from None


def iter_sessions(path: Path, format_name: str | None = None, table: str | None = None,
                  mapping: dict[str, str] | None = None, only: str | None = None, start: int = 0) -> Iterator[Session]:
    """The sessions of the file at `path` one at a time: an SQLite history is read conversation by
    conversation (`table`/`mapping` name a table of any other schema); `only` keeps one session id,
    `start` skips the sessions before that number (in SQL, for a database)."""
    if table is not None or mapping or sqlite_db.is_database(path):
        sqlite_db.check_header(Path(path))
        yield from sqlite_history.iter_sessions(Path(path), format_name, table, mapping, only, start)
        return
    for session in load_sessions(path, format_name)[start:]:
        if only is None or session.session_id == only:
            yield session


def _load(path: Path, format_name: str | None) -> list[Session]:
    document = read_document(path)
    if format_name is not None:
        adapter = ADAPTERS.get(format_name)
        if adapter is None:
            raise InspectorError(f"unknown format {format_name!r} (choose from {', '.join(ADAPTERS)})")
        if not adapter.matches(document):
            raise InspectorError(f"{path}: does not have the shape of the {format_name} format")
    else:
        adapter = next((a for a in ADAPTERS.values() if a.matches(document)), None)
        if adapter is None:
            raise InspectorError(f"{path}: not a recognised session format ({_describe(document)}); try --format")
    sessions = adapter.read(document)
    if not sessions:
        raise InspectorError(f"{path}: holds no session")
    return sessions


def render_sessions(sessions: list[Session]) -> str:
    """The text of the file the sessions came from, with their (possibly repaired) turns."""
    first = sessions[0]
    return ADAPTERS[first.format].write(first.document, sessions)


def save_sessions(sessions: list[Session], path: Path) -> None:
    """Write the sessions, in their own format, to `path` atomically."""
    write_text_atomic(Path(path), render_sessions(sessions))


def session_files(directory: Path) -> list[Path]:
    """The session files directly inside `directory`, sorted; audit logs and reviews are left out."""
    return sorted(
        p for p in Path(directory).iterdir()
        if p.is_file() and p.suffix in SESSION_SUFFIXES and not p.name.endswith(NOT_SESSIONS)
    )


def _describe(document) -> str:
    value = document.value
    if document.is_jsonl:
        return f"JSON Lines of {len(value)} records"
    if isinstance(value, dict):
        keys = ", ".join(list(value)[:6]) or "none"
        return f"an object with keys: {keys}"
    return f"a JSON {type(value).__name__.replace('dict', 'object').replace('str', 'string')}"
