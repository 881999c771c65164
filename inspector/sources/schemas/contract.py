"""The contract of a chat-history schema: the `HistorySchema` each schema module of
`inspector.sources.schemas` ends with (`SCHEMA = HistorySchema(NAME, recognise, READER, WRITER)`),
run on SQLite and on PostgreSQL alike through the interfaces both implement
(`inspector.sources.sql.statements`: `Queries` to read, `Statements` to write).

A schema is:

- `name`: the name `--format` takes; every session it reads carries it as `Session.format`.
- `recognise(db, tables) -> bool`: whether the database's tables (each with its column names)
  are this schema's, by the tables and columns only it makes; None for a schema that is never
  recognised, only named (a table named with `--table T --map ...`).
- `read`, a `HistoryReader`: `conversations(db, location)`, each conversation's id and message
  count without reading a message, and `sessions(db, location, only, start)`, the conversations
  one at a time (only the one with id `only`; from the `start`th on), in the same order. Every
  `Turn` keeps its row (or what names it) as `raw`; a row it cannot read is counted in its
  session's `problems`, never dropped without a word.
- `writer`, a `SchemaWriter`, or None: a read-only schema.
- `survey(db, location) -> tuple[Unread, ...]`, or None: the record types and keys in the
  database that the reader does not know, by the version of the tool that wrote them
  (`inspector.sources.unread_records`), for `scan --unknowns`; offered by the schemas of tools
  whose stores change from release to release (the coding agents).
- `table` and `mapping`: for a schema read as a table of messages (Elia's), its table and columns,
  set in the location of a database recognised as it.

Which schemas a database reads is the backend's to declare (`recognition.Backend`): a schema
whose SQL only SQLite runs (`PRAGMA`, `LIMIT -1`) is read from SQLite files only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from inspector.errors import InspectorError
from inspector.model import AppliedFix, Session
from inspector.sources.base import WrittenFix
from inspector.sources.location import HistoryLocation
from inspector.sources.sql.statements import Queries, Scope, Statements
from inspector.sources.unread_records import Unread
from inspector.support.safe_text import shown_name

Recognise = Callable[[Queries, dict[str, set[str]]], bool]
Conversations = Callable[[Queries, HistoryLocation], Iterator[tuple[str, int]]]
Sessions = Callable[[Queries, HistoryLocation, str | None, int], Iterator[Session]]
WriteConversation = Callable[[Statements, Session, Sequence[AppliedFix], str], list[WrittenFix]]
ChangedRows = Callable[[Statements, Session], Scope]
Survey = Callable[[Queries, HistoryLocation], tuple[Unread, ...]]


@dataclass(frozen=True)
class HistoryReader:
    """How a schema's conversations are listed (`conversations`) and read (`sessions`)."""

    conversations: Conversations
    sessions: Sessions


@dataclass(frozen=True)
class SchemaWriter:
    """How a schema's repaired conversations are written back, inside the caller's transaction.

    - `write(db, session, fixes, stamp) -> list[WrittenFix]`: write one repaired conversation
      (`stamp`: when, as ISO 8601), returning one `WrittenFix` per fix (the table and row it
      changed, and a note on anything the schema could not hold);
    - `changed_rows(db, session)`: the rows that write may change, which the audit images before
      and after it (so `inspector undo` can revert it) and PostgreSQL locks; None when they cannot
      be named (a write as a new fork beside the original, which only adds rows): its fixes
      cannot be undone;
    - `tables`: the tables it writes, whose own triggers a server refuses before anything is
      written (none named: the location's table, for a table named with `--table`);
    - `forks`: a repaired conversation is written as a new fork, the original left as it was.
    """

    write: WriteConversation
    changed_rows: ChangedRows | None
    tables: tuple[str, ...] = ()
    forks: bool = False


@dataclass(frozen=True)
class HistorySchema:
    """One chat-history schema (see the module's docstring for what each field must do)."""

    name: str
    recognise: Recognise | None
    read: HistoryReader
    writer: SchemaWriter | None = None
    table: str | None = None
    mapping: dict[str, str] = field(default_factory=dict)
    survey: Survey | None = None


def conversation_id(session: Session) -> str:
    """The id of a conversation a schema read (each has one: its key in the database), which its
    writer writes it back by; one `InspectorError` line for a session without one."""
    if session.session_id is None:
        raise InspectorError(f"{shown_name(session.path)}: a conversation without an id cannot be written back")
    return session.session_id
