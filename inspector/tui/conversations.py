"""A chat history kept in SQLite, as the app reads it: one conversation at a time.

The picker lists a database's conversations from `list_conversations` (ids and message counts,
no message read) and scans them in turn; the review screen loads and scans only the conversation
opened. A conversation's number is its place in `list_conversations`, the number the review file
keeps its decisions under, so reviews of different conversations share one review file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

from inspector.errors import InspectorError
from inspector.formats.sqlite_db import is_database
from inspector.formats.sqlite_history import list_conversations, load_conversation
from inspector.model import Session
from inspector.review import Review
from inspector.scan import ScanResult, iter_scan

__all__ = ["include_decided", "index_of_session", "is_database", "open_conversation", "scan_from"]


def open_conversation(path: Path, conversation: str) -> tuple[Session, int, int]:
    """The conversation `conversation` of the database, its number and how many the database has.
    An unknown id is an `InspectorError` naming it."""
    session = load_conversation(path, conversation)
    ids = [identifier for identifier, _ in list_conversations(path)]
    return session, ids.index(session.session_id), len(ids)


def index_of_session(path: Path, sessions: list[Session], session_id: str) -> int:
    """The index of the session `session_id` among the sessions of the file at `path`."""
    for index, session in enumerate(sessions):
        if session.session_id == session_id:
            return index
    raise InspectorError(f"{path}: no session {session_id!r} (see `inspector scan {path}` for the ids)")


def scan_from(path: Path, first: int) -> Iterator[ScanResult]:
    """The database's conversations from number `first` on, each with its findings; those before
    are skipped by SQLite, not read."""
    return iter_scan(path, start=first)


def include_decided(review: Review) -> None:
    """Read and scan into `review` every other conversation of its database with approved fixes in
    the review file, so an export applies the decisions taken on each conversation."""
    wanted = review.decided_elsewhere() if is_database(review.path) else []
    if not wanted:
        return
    ids = [identifier for identifier, _ in list_conversations(review.path)]
    for number in wanted:
        if number < len(ids):
            for result in iter_scan(review.path, only=ids[number]):
                review.include(number, result)
