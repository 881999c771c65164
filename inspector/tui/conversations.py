"""A chat history kept in SQLite, as the app reads it: one conversation at a time.

The picker lists a database's conversations from `list_conversations` (ids and message counts,
no message read) and scans them in turn; the review screen loads and scans only the conversation
opened. The review file keeps decisions by conversation id, so reviews of different
conversations share one review file. A table the person names (`--table T --map ...`) is read
the same way, through a `NamedTable` handed to each function.
"""

from __future__ import annotations

from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, NamedTuple, Sequence

from inspector.errors import InspectorError
from inspector.sources.sqlite import table as sqlite_table
from inspector.sources.sqlite.database import SqliteSource, check_header, is_database, mapped_errors, reading
from inspector.sources.sqlite.history import list_conversations, load_conversation, schema_of
from inspector.model import Session
from inspector.review.review import Review
from inspector.review.review_file import SessionKey, review_path_for
from inspector.scan.scanner import ScanResult, iter_scan

__all__ = ["NamedTable", "Opened", "check_named_table", "decision_warnings", "describe_missing", "include_decided",
           "index_of_session", "is_database", "listing", "open_conversation", "scan_from"]


@dataclass(frozen=True)
class NamedTable:
    """The table a database's messages are read from when the person names it: `--table T --map
    role=COL,content=COL[,id=COL,session=COL,order=COL]` (see `inspector.sources.sqlite.table`)."""

    table: str | None = None
    mapping: dict[str, str] | None = field(default=None, hash=False)

    @property
    def given(self) -> bool:
        """Whether the person named a table or a mapping (else the schema is recognised)."""
        return self.table is not None or self.mapping is not None


class Opened(NamedTuple):
    """A conversation opened on its own: it, its place in the database, and every conversation's
    id in the database's order."""

    session: Session
    place: int
    conversations: list[str]


def check_named_table(path: Path, named: NamedTable) -> None:
    """Fail with the line `inspector scan` gives when `--table`/`--map` cannot be read from the
    file at `path`: not a database, one without the other, no such table or column."""
    check_header(path)
    schema_of(path, table=named.table, mapping=named.mapping)  # --table and --map go together
    with reading(path) as db, mapped_errors(path, "reading the table"):
        sqlite_table.check(db, SqliteSource(path, sqlite_table.NAME, named.table, dict(named.mapping)))


def listing(path: Path, named: NamedTable) -> tuple[list[tuple[str, int]], str]:
    """The database's conversations (ids and message counts) and the name of its schema."""
    return (list_conversations(path, table=named.table, mapping=named.mapping),
            schema_of(path, table=named.table, mapping=named.mapping))


def open_conversation(path: Path, conversation: str, named: NamedTable) -> Opened:
    """The conversation `conversation` of the database, read and placed among the others. An
    unknown id is an `InspectorError` naming it."""
    session = load_conversation(path, conversation, table=named.table, mapping=named.mapping)
    ids = [identifier for identifier, _ in list_conversations(path, table=named.table, mapping=named.mapping)]
    return Opened(session, ids.index(session.session_id), ids)


def index_of_session(path: Path, sessions: list[Session], session_id: str) -> int:
    """The index of the session `session_id` among the sessions of the file at `path`."""
    for index, session in enumerate(sessions):
        if session.session_id == session_id:
            return index
    raise InspectorError(f"{path}: no session {session_id!r} (see `inspector scan {path}` for the ids)")


def scan_from(path: Path, first: int, named: NamedTable) -> Iterator[ScanResult]:
    """The database's conversations from number `first` on, each with its findings; those before
    are skipped by SQLite, not read."""
    return iter_scan(path, table=named.table, mapping=named.mapping, start=first)


def include_decided(review: Review, named: NamedTable) -> list[SessionKey]:
    """Read and scan into `review` every other conversation of its database with approved fixes in
    the review file, so an export applies the decisions taken on each conversation. Returns the
    conversations with approved fixes that the database no longer has (their fixes stay unapplied)."""
    missing: list[SessionKey] = []
    for conversation in review.decided_elsewhere() if is_database(review.path) else []:
        found = None
        if isinstance(conversation, str):  # else a place an earlier version saved, past the end
            with closing(iter_scan(review.path, table=named.table, mapping=named.mapping, only=conversation)) as one:
                found = next(one, None)
        if found is None:
            missing.append(conversation)
        else:
            review.include(found)
    return missing


def decision_warnings(review: Review, conversations: Sequence[str] | None) -> list[str]:
    """A line for each kind of decision in the review file that may be misplaced or can no longer
    be applied: read by place from an earlier version's file, on conversations the database
    (whose ids now are `conversations`) no longer has, and on findings the sessions read no
    longer have."""
    lines = []
    if review.read_by_place:
        lines.append(f"{review.review_path.name} was saved by an earlier version, which kept decisions by the "
                     "conversations' places: they are read by today's places (check them if conversations were "
                     "added or removed since) and kept by id from the next decision")
    missing = review.decided_missing(conversations) if conversations is not None else {}
    if missing:
        lines.append(describe_missing(review.path, list(missing), _decisions(sum(missing.values()))))
    unmatched = review.unmatched()
    if unmatched:
        shown = "this conversation" if conversations is not None else review.path.name
        lines.append(f"{_decisions(unmatched)} in {review.review_path.name} match{'es' if unmatched == 1 else ''} "
                     f"no finding of {shown} now (it changed since): kept in the file, not applied")
    return lines


def describe_missing(path: Path, conversations: list[SessionKey], what: str) -> str:
    """One line saying that `what` (decisions, approved fixes) on `conversations` cannot be applied
    because the database at `path` no longer has them."""
    named = ", ".join(repr(key) if isinstance(key, str) else f"number {key + 1} of an earlier version's list"
                      for key in conversations)
    return (f"{what} on conversation{'s' if len(conversations) != 1 else ''} {named}, no longer in {path.name}, "
            f"cannot be applied (kept in {review_path_for(path).name})")


def _decisions(count: int) -> str:
    return f"{count} decision{'s' if count != 1 else ''}"
