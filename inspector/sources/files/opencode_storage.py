"""An OpenCode session in its older JSON storage, kept as many files, read as one `Document`.

OpenCode releases before its SQLite history (up to 1.1.65) keep each session in the folder
`storage/` as one JSON file per record: `session/<projectID>/<sessionID>.json` (the session),
`message/<sessionID>/<messageID>.json` (one per message) and `part/<messageID>/<partID>.json`
(one per part of a message), every id starting with its kind (`ses_`, `msg_`, `prt_`) and growing
with time. The session is opened by its own file; its messages and their parts are read from the
sibling folders, each in the order of its id, as OpenCode lists them: the document's `value` is
`{"session": ..., "messages": [{"info": message, "parts": [part, ...]}, ...]}`. A file of those
folders named otherwise is not a record and is left alone; a record that is not JSON is one
`InspectorError` line naming it. The document is never rendered as one file: a repair is written
back record by record (`record_files_write`), to the files `record_files` names.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from inspector.errors import InspectorError
from inspector.sources.files.document import Document, read_document
from inspector.sources.files.file_state import FileState, state_of
from inspector.support.lazy_pattern import lazy_pattern
from inspector.support.safe_text import shown_name

SESSION_NAME = lazy_pattern(r"ses_[0-9A-Za-z]+\.json")
MESSAGE_NAME = lazy_pattern(r"msg_[0-9A-Za-z]+\.json")
PART_NAME = lazy_pattern(r"prt_[0-9A-Za-z]+\.json")


def is_storage_session(path: Path) -> bool:
    """Whether `path` is a session file of OpenCode's JSON storage: `session/<project>/ses_….json`
    with the session's `message/<session id>/` folder in the same storage."""
    path = Path(path)
    if not SESSION_NAME.fullmatch(path.name) or path.parent.parent.name != "session":
        return False
    return (_storage(path) / "message" / path.stem).is_dir()


def read_storage_session(path: Path, states: dict[Path, FileState | None] | None = None) -> Document:
    """The session whose file is `path`, with its messages and their parts in order; each file's
    state (`file_state`), taken just before it is read, put into `states` when given."""
    path = Path(path)
    session = _record(path, "session", states)
    storage = _storage(path)
    messages = [
        {
            "info": _record(message, "message", states),
            "parts": [_record(part, "part", states) for part in _records(storage / "part" / message.stem, PART_NAME)],
        }
        for message in _records(storage / "message" / path.stem, MESSAGE_NAME)
    ]
    return Document(path, {"session": session, "messages": messages})


def record_files(path: Path) -> list[Path]:
    """The files of the session whose file is `path`, as `read_storage_session` reads them: the
    session's file, then each message's file followed by its parts' files."""
    path = Path(path)
    storage = _storage(path)
    files = [path]
    for message in _records(storage / "message" / path.stem, MESSAGE_NAME):
        files.append(message)
        files.extend(_records(storage / "part" / message.stem, PART_NAME))
    return files


def storage_folder(path: Path) -> Path:
    """The `storage/` folder of a session file (`storage/session/<project>/<file>`)."""
    return _storage(Path(path))


def _storage(path: Path) -> Path:
    """The `storage/` folder of a session file (`storage/session/<project>/<file>`)."""
    return path.parent.parent.parent


def _records(folder: Path, name: re.Pattern[str]) -> list[Path]:
    """The record files of `folder` (none when it is missing), in the order of their ids."""
    if not folder.is_dir():
        return []
    try:
        with os.scandir(folder) as entries:
            names = [entry.name for entry in entries if name.fullmatch(entry.name) and entry.is_file()]
    except OSError as exc:
        raise InspectorError(f"{shown_name(folder)}: cannot list ({exc.strerror or exc})") from None
    return [folder / each for each in sorted(names)]


def _record(path: Path, kind: str, states: dict[Path, FileState | None] | None) -> object:
    """One record file's JSON value (its state put into `states` first, when given)."""
    if states is not None:
        states[path] = state_of(path)
    document = read_document(path)
    if document.is_jsonl or document.is_text:
        raise InspectorError(f"{shown_name(path)}: not one JSON value, not an OpenCode {kind}")
    return document.value
