"""A chat history kept in SQLite or in a PostgreSQL server's database (named by its URL), as the
app reads it: one conversation at a time.

The picker lists a database's conversations from its source's `listing` (ids and message counts,
no message read) and scans them in turn; the review screen loads and scans only the conversation
opened. The review file keeps decisions by conversation id, so reviews of different
conversations share one review file. How the person asked for the input to be read (a table
they name, `--table T --map ...`, a format, extra tool definitions) goes to each function as a
`ReadOptions`.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from inspector.errors import InspectorError
from inspector.model import Location, ServerUrl, Session, ToolSpec
from inspector.sources import open_source
from inspector.sources.location import is_database
from inspector.support.safe_text import shown_name

if TYPE_CHECKING:
    from inspector.review.review import Review
    from inspector.review.review_file import SessionKey
    from inspector.scan.scanner import ScanResult
    from inspector.sources.base import Listed, Source

# The scanner (every detector), a named table's reader and SQLite's are imported when first used:
# the app's first screen is drawn without them.

__all__ = [
    "Opened",
    "ReadOptions",
    "check_named_table",
    "check_server",
    "decision_warnings",
    "describe_missing",
    "include_decided",
    "index_of_session",
    "is_history",
    "listing",
    "open_conversation",
]


@dataclass(frozen=True)
class ReadOptions:
    """How the person asked for the input to be read, with `inspector scan`'s options: a
    database's messages from a table of theirs (`--table T --map
    role=COL,content=COL[,id=COL,session=COL,order=COL]`, see `inspector.sources.schemas.table`),
    as a format (`--format NAME`), and the tool definitions calls are checked against besides
    the session's own (`--tools FILE`)."""

    table: str | None = None
    mapping: dict[str, str] | None = field(default=None, hash=False)
    format_name: str | None = None
    extra_tools: tuple[ToolSpec, ...] = field(default=(), hash=False)

    def open(self, path: Location) -> Source:
        """The source at `path` (a file, or a server's database), read as the format named (else
        recognised), a database read from the table named when there is one."""
        return open_source(path, self.format_name, self.table, self.mapping)

    def scan(self, source: Source, start: int = 0) -> Generator[ScanResult, None, None]:
        """The sessions of `source` from number `start` on (those before are skipped by SQLite,
        not read), each with its findings against the session's tools and the extra ones."""
        from inspector.scan.scanner import iter_scan

        return iter_scan(source, self.extra_tools, start=start)

    @property
    def table_key(self) -> str | None:
        """The table and columns named, as the review file's name tells them apart
        (`Source.table_key`); None when none is named."""
        if not self.given:
            return None
        from inspector.sources.schemas.table import named_table_key

        return named_table_key(self.table, self.mapping)

    @property
    def given(self) -> bool:
        """Whether the person named a table or a mapping (else the schema is recognised)."""
        return self.table is not None or self.mapping is not None


class Opened(NamedTuple):
    """A conversation opened on its own: its source, it, its place in the database, and every
    conversation's id in the database's order."""

    source: Source
    session: Session
    place: int
    conversations: list[str]


def check_named_table(path: Path, named: ReadOptions) -> None:
    """Fail with the line `inspector scan` gives when `--table`/`--map` cannot be read from the
    file at `path`: not a database, one without the other, no such table or column."""
    from inspector.sources.sqlite.history import SqliteHistory

    SqliteHistory(path, table_name=named.table, mapping=named.mapping).check_table()


def check_server(url: ServerUrl, named: ReadOptions) -> str:
    """The name of the schema the server's database is read as (connecting once); else the line
    `inspector scan` gives: psycopg missing, a bad URL, a server that is down or refuses the login,
    no history schema this tool reads (or no table `--table` names), the password never shown."""
    return named.open(url).format


def is_history(path: Location) -> bool:
    """Whether `path` is a history read one conversation at a time: a server's database, or a
    file read as an SQLite history."""
    return isinstance(path, ServerUrl) or is_database(path)


def listing(source: Source) -> tuple[list[tuple[str, int]], str]:
    """The database's conversations (ids and message counts) and the name of its schema."""
    return [(_conversation_id(entry), entry.messages) for entry in source.listing()], source.format


def open_conversation(path: Location, conversation: str, named: ReadOptions) -> Opened:
    """The conversation `conversation` of the database, read and placed among the others. An
    unknown id is an `InspectorError` naming it."""
    source = named.open(path)
    session = source.session(conversation)
    ids = [_conversation_id(entry) for entry in source.listing()]
    return Opened(source, session, ids.index(str(session.session_id)), ids)


def _conversation_id(entry: Listed) -> str:
    """The id of a database's conversation: a history's readers name every one (as a string)."""
    return str(entry.session_id)


def index_of_session(path: Location, sessions: list[Session], session_id: str) -> int:
    """The index of the session `session_id` among the sessions of the file at `path`."""
    for index, session in enumerate(sessions):
        if session.session_id == session_id:
            return index
    raise InspectorError(
        f"{shown_name(path)}: no session {session_id!r} (see `inspector scan {shown_name(path)}` for the ids)"
    )


def include_decided(review: Review) -> list[SessionKey]:
    """Read and scan into `review` every other conversation of its database with approved fixes in
    the review file, so an export applies the decisions taken on each conversation. Returns the
    conversations with approved fixes that the database no longer has (their fixes stay unapplied)."""
    from inspector.scan.scanner import iter_scan

    missing: list[SessionKey] = []
    for conversation in review.decided_elsewhere() if review.source.streams else []:
        found = None
        if isinstance(conversation, str):  # else a place an earlier version saved, past the end
            with closing(iter_scan(review.source, review.extra_tools, only=conversation)) as one:
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
        lines.append(
            f"{shown_name(review.review_path.name)} was saved by an earlier version, which kept decisions by the "
            "conversations' places: they are read by today's places (check them if conversations were "
            "added or removed since) and kept by id from the next decision"
        )
    missing = review.decided_missing(conversations) if conversations is not None else {}
    if missing:
        lines.append(describe_missing(review, list(missing), _decisions(sum(missing.values()))))
    unmatched = review.unmatched()
    if unmatched:
        shown = "this conversation" if conversations is not None else review.path.name
        lines.append(
            f"{_decisions(unmatched)} in {shown_name(review.review_path.name)} match{'es' if unmatched == 1 else ''} "
            f"no finding of {shown} now (it changed since): kept in the file, not applied"
        )
    return lines


def describe_missing(review: Review, conversations: list[SessionKey], what: str) -> str:
    """One line saying that `what` (decisions, approved fixes) on `conversations` cannot be applied
    because the database `review` reviews no longer has them."""
    named = ", ".join(
        repr(key) if isinstance(key, str) else f"number {key + 1} of an earlier version's list" for key in conversations
    )
    return (
        f"{what} on conversation{'s' if len(conversations) != 1 else ''} {named}, no longer in {shown_name(review.path.name)}, "
        f"cannot be applied (kept in {shown_name(review.review_path.name)})"
    )


def _decisions(count: int) -> str:
    return f"{count} decision{'s' if count != 1 else ''}"
