"""RubyLLM's Rails tables: `messages(id, chat_id, role, content, model_id,
tool_call_id INTEGER -> tool_calls.id, ...)` and `tool_calls(id, message_id, tool_call_id TEXT,
name, arguments JSON, ...)`, in SQLite or PostgreSQL.

One conversation per `chat_id`. An assistant message's calls are the `tool_calls` rows whose
`message_id` is its id; a `tool` message answers the call whose row id is its `tool_call_id`.
Messages are ordered by `created_at` (as RubyLLM orders a chat), then id: read in the chat index's
order and sorted per chat only when needed. Messages and calls are read as two streams ordered by
chat, so memory holds one chat at a time. `arguments` (`jsonb` in a Rails app on PostgreSQL) is
read as text. Written back by `_rubyllm_write`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, AppliedFix, Session, ToolCall, ToolResult, Turn
from inspector.sources.base import WrittenFix
from inspector.sources.location import HistoryLocation
from inspector.sources.messages.arguments import parse_arguments
from inspector.sources.schemas.contract import HistoryReader, HistorySchema, SchemaWriter
from inspector.sources.sql.rows import grouped, merge_groups, stored_order
from inspector.sources.sql.statements import Queries, Scope, Statements

NAME = "rubyllm"
ROLES = {"system": SYSTEM, "user": USER, "assistant": ASSISTANT, "tool": TOOL}
MESSAGE_COLUMNS = {"id", "chat_id", "role", "content", "tool_call_id"}
CALL_COLUMNS = {"id", "message_id", "tool_call_id", "name", "arguments"}
KEYS = "SELECT chat_id FROM messages GROUP BY 1 ORDER BY 1"


def recognise(db: Queries, tables: dict[str, set[str]]) -> bool:
    """`messages` and `tool_calls` tables with RubyLLM's columns."""
    return tables.get("messages", set()) >= MESSAGE_COLUMNS and tables.get("tool_calls", set()) >= CALL_COLUMNS


def conversations(db: Queries, location: HistoryLocation) -> Iterator[tuple[str, int]]:
    """Each chat's id and message count, counted by the database."""
    for chat_id, count in db.rows("SELECT chat_id, count(*) FROM messages GROUP BY chat_id ORDER BY chat_id"):
        yield str(chat_id), count


def sessions(db: Queries, location: HistoryLocation, only: str | None = None, start: int = 0) -> Iterator[Session]:
    """Each chat as a session (only the chat `only` when given), from the `start`th on."""
    columns = db.columns("messages")
    model = "m.model_id" if "model_id" in columns else "NULL"
    created = "m.created_at" if "created_at" in columns else "NULL"
    where, params = db.matching("m.chat_id", only, start, KEYS)
    messages = db.rows(
        f"SELECT m.id, m.chat_id, m.role, m.content, m.tool_call_id, {model}, {created} "
        f"FROM messages m {where} ORDER BY m.chat_id, m.id",
        params,
    )  # the chat index's order
    calls = db.rows(
        f"SELECT tc.id, tc.message_id, tc.tool_call_id, tc.name, {db.text('tc.arguments')}, m.chat_id "
        f"FROM tool_calls tc JOIN messages m ON m.id = tc.message_id {where} ORDER BY m.chat_id, tc.id",
        params,
    )
    for chat_id, rows, call_rows in merge_groups(grouped(messages, 1), grouped(calls, 5)):
        yield _chat_session(location, str(chat_id), _in_created_order(rows), call_rows)


def _in_created_order(rows: list[Any]) -> list[Any]:
    """A chat's rows, read in id order, in RubyLLM's order: by `created_at`, then id. Checking
    here that they already are (the usual case) is cheaper than the database sorting every row."""
    stamps = [row[6] for row in rows]
    try:
        if stamps == sorted(stamps):
            return rows
    except TypeError:  # NULL among the stamps, or numbers and text mixed
        pass
    return sorted(rows, key=lambda row: stored_order(row[6]))  # stable: ties stay in id order


def _chat_session(location: HistoryLocation, chat_id: str, rows: list[Any], call_rows: list[Any]) -> Session:
    """The chat `chat_id` as a session: `rows` its messages in order (`id, chat_id, role, content,
    tool_call_id, model, created_at`), `call_rows` its `tool_calls` rows (`id, message_id,
    tool_call_id, name, arguments, chat_id`)."""
    calls_by_message: dict[Any, list[ToolCall]] = {}
    calls_by_row: dict[Any, ToolCall] = {}
    for row_id, message_id, call_id, name, arguments, _ in call_rows:
        call = ToolCall(call_id, name or "", arguments, parse_arguments(arguments))
        calls_by_message.setdefault(message_id, []).append(call)
        calls_by_row[row_id] = call
    turns: list[Turn] = []
    problems: list[str] = []
    # The hot path of scanning a large history: plain lookups bound once, no helper call per message.
    add, role_of, calls_of, call_at = turns.append, ROLES.get, calls_by_message.get, calls_by_row.get
    for position, (row_id, _, stated, content, answers, model, _) in enumerate(rows):
        role = role_of(stated)
        if role is None:
            problems.append(f"message {row_id}: role {stated!r} is not one RubyLLM writes, skipped")
            continue
        text = content if type(content) is str else ""
        calls = calls_of(row_id)
        results: tuple[ToolResult, ...] = ()
        if role == TOOL:
            answered = call_at(answers)
            results = (ToolResult(answered.id if answered else None, answered.name if answered else None, text),)
        add(
            Turn(
                position,
                role,
                text,
                str(row_id),
                tuple(calls) if calls else (),
                results,
                {"id": row_id, "model": model} if model is not None else {"id": row_id},
            )
        )
    return Session(NAME, location.path, tuple(turns), document=location, session_id=chat_id, problems=tuple(problems))


def changed_rows(db: Statements, session: Session) -> Scope:
    """The chat's messages and their calls."""
    key = session.session_id
    return [
        ("messages", "chat_id = ?", [key]),
        ("tool_calls", "message_id IN (SELECT id FROM messages WHERE chat_id = ?)", [key]),
    ]


def write(db: Statements, session: Session, fixes: Sequence[AppliedFix], stamp: str) -> list[WrittenFix]:
    """Write a repaired chat back (`_rubyllm_write`, loaded only when writing)."""
    from inspector.sources.schemas._rubyllm_write import write_session

    return write_session(db, session, fixes, stamp)


SCHEMA = HistorySchema(
    NAME,
    recognise,
    HistoryReader(conversations, sessions),
    SchemaWriter(write, changed_rows, tables=("messages", "tool_calls")),
)
