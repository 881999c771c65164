"""Writing a repaired RubyLLM chat back to its Rails tables.

An edited message gets its new `content` (and `updated_at`); its calls get their `name` (a
renamed call) and repaired `arguments` (a `tool` message names no tool: it points at the call's
row). A recovered call is recorded the way RubyLLM records a real one: an assistant message
(the fixed one itself when the reply was only the leaked call) owning a `tool_calls` row
(`message_id`), then a `tool` message whose integer `tool_call_id` is that row's id, holding the
result. New messages are stamped one microsecond apart just after the message before them, so
RubyLLM (which orders a chat by `created_at`) and this tool read them in their place. The same
writer writes RubyLLM's tables on PostgreSQL: it goes through `statements` (`?` placeholders).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from inspector.model import AppliedFix, Session, ToolCall, Turn
from inspector.sources.base import WrittenFix
from inspector.sources.messages.arguments import arguments_as_json
from inspector.sources.schemas._call_rows import update_calls
from inspector.sources.sql.audit_table import fixed_row
from inspector.sources.sql.statements import Statements, column_names, found_row

TABLE = "messages"


def write_session(conn: Statements, session: Session, fixes: Sequence[AppliedFix], stamp: str) -> list[WrittenFix]:
    """Write the session's edited and new turns; returns one audit row per fix."""
    message_columns = conn.columns("messages")
    call_columns = conn.columns("tool_calls")
    stored_calls = _stored_calls(conn, session)
    messages = _Messages(conn)
    call_rows: dict[str | None, Any] = {}  # a call id of this chat (or None) -> its tool_calls row
    previous_id: Any = None  # the stored message before the turn (read only when a new one follows it)
    added = 0
    notes: dict[int, list[str]] = {}
    for turn in session.turns:
        if turn.raw is not None:
            previous_id, added = turn.raw["id"], 0
            rows = stored_calls.get(turn.raw["id"], []) if turn.tool_calls else []
            if turn.edited:
                _update(conn, turn, message_columns, stamp, rows)
            for index, call in enumerate(turn.tool_calls):
                if index < len(rows):
                    row = rows[index]
                else:  # the reply was only the leaked call: this message now makes it
                    row = _insert_call(
                        conn,
                        call_columns,
                        call,
                        turn.raw["id"],
                        messages[turn.raw["id"]].get("created_at"),
                        session.session_id,
                    )
                    notes.setdefault(turn.position, []).append(f"call {call.name} as tool_calls row {row}")
                if call.id is not None:
                    call_rows.setdefault(call.id, row)
            continue
        added += 1
        previous = messages[previous_id] if previous_id is not None else None
        created = _after(previous.get("created_at") if previous else None, added)
        base = {
            "chat_id": _chat_id(messages, session, previous),
            "created_at": created,
            "updated_at": created,
            "model_id": previous.get("model_id") if previous and turn.role == "assistant" else None,
        }
        if turn.tool_calls:
            message_id = _insert(conn, "messages", message_columns, {**base, "role": "assistant", "content": ""})
            for call in turn.tool_calls:
                call_rows[call.id] = _insert_call(conn, call_columns, call, message_id, created, session.session_id)
                notes.setdefault(turn.position, []).append(f"call {call.name} as tool_calls row {call_rows[call.id]}")
        for result in turn.tool_results:
            row = _insert(
                conn,
                "messages",
                message_columns,
                {
                    **base,
                    "role": "tool",
                    "content": arguments_as_json(result.content),
                    "tool_call_id": call_rows.get(result.call_id),
                },
            )
            notes.setdefault(turn.position, []).append(f"result as message {row}")
    return [
        WrittenFix(fix, session.session_id, TABLE, fixed_row(session, fix), "; ".join(notes.get(fix.finding.turn, ())))
        for fix in fixes
    ]


def _stored_calls(conn: Statements, session: Session) -> dict[Any, list[Any]]:
    """The `tool_calls` rows of the chat's messages, by message id, each message's in id order (the
    order the reader gives a turn its calls in); read in one query, only when a stored turn has calls."""
    if not any(turn.raw is not None and turn.tool_calls for turn in session.turns):
        return {}
    rows: dict[Any, list[Any]] = {}
    for message_id, row in conn.execute(
        "SELECT message_id, id FROM tool_calls WHERE message_id IN "
        "(SELECT id FROM messages WHERE chat_id = ?) ORDER BY id",
        [session.session_id],
    ):
        rows.setdefault(message_id, []).append(row)
    return rows


class _Messages(dict[Any, dict[str, Any]]):
    """The chat's stored messages, each row (by id) read once when first asked for: only the
    columns the writer does not change are used (`created_at`, `model_id`, `chat_id`)."""

    def __init__(self, conn: Statements) -> None:
        super().__init__()
        self._conn = conn

    def __missing__(self, message_id: Any) -> dict[str, Any]:
        cursor = self._conn.execute("SELECT * FROM messages WHERE id = ?", [message_id])
        row = found_row(cursor)
        self[message_id] = dict(zip(column_names(cursor), row))
        return self[message_id]


def _update(conn: Statements, turn: Turn, message_columns: set[str], stamp: str, call_rows: list[Any]) -> None:
    """Write an edited message's text, when it changed (a `tool` message answering a renamed call
    is edited only in name, which its call's row holds), and its calls (`call_rows`, its stored
    `tool_calls` rows)."""
    touched = ", updated_at = ?" if "updated_at" in message_columns else ""
    conn.execute(
        f"UPDATE messages SET content = ?{touched} WHERE id = ? AND coalesce(content, '') <> ?",
        [turn.text, *([_rails_time(stamp)] if touched else []), turn.raw["id"], turn.text],
    )
    update_calls(conn, turn, "message_id", call_rows)


def _insert_call(
    conn: Statements, columns: set[str], call: ToolCall, message_id: Any, created: Any, chat_id: str | None
) -> Any:
    """Store a recovered call as a `tool_calls` row of the message `message_id`; its row id."""
    return _insert(
        conn,
        "tool_calls",
        columns,
        {
            "message_id": message_id,
            "tool_call_id": _unique_call_id(conn, call.id or "call_inspector", chat_id),
            "name": call.name,
            "arguments": json.dumps(call.arguments or {}, ensure_ascii=False),
            "created_at": created,
            "updated_at": created,
        },
    )


def _chat_id(messages: _Messages, session: Session, previous: dict[str, Any] | None) -> Any:
    if previous is not None:
        return previous["chat_id"]
    first = next(turn for turn in session.turns if turn.raw is not None)
    return messages[first.raw["id"]]["chat_id"]


def _unique_call_id(conn: Statements, call_id: str, chat_id: str | None) -> str:
    """`call_id` made unique across the table (RubyLLM keeps a unique index on it)."""
    candidate, number = f"{call_id}_chat{chat_id}", 1
    while conn.execute("SELECT 1 FROM tool_calls WHERE tool_call_id = ?", [candidate]).fetchone():
        candidate, number = f"{call_id}_chat{chat_id}_{number}", number + 1
    return candidate


def _insert(conn: Statements, table: str, columns: set[str], values: dict[str, Any]) -> Any:
    return conn.insert(table, {name: value for name, value in values.items() if name in columns})


def _after(created_at: Any, microseconds: int) -> Any:
    """A Rails timestamp `microseconds` after `created_at`, in the same shape (as is when unparsable)."""
    if isinstance(created_at, datetime):  # PostgreSQL's timestamp
        return created_at + timedelta(microseconds=microseconds)
    if not isinstance(created_at, str):
        return created_at
    try:
        moment = datetime.fromisoformat(created_at) + timedelta(microseconds=microseconds)
    except ValueError:
        return created_at
    return moment.isoformat(sep="T" if "T" in created_at else " ", timespec="microseconds")


def _rails_time(stamp: str) -> str:
    return datetime.fromisoformat(stamp).strftime("%Y-%m-%d %H:%M:%S.%f")
