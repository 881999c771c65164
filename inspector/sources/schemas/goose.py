"""Goose's `sessions.db` (schema version 5 and later): `sessions(id, name, description,
working_dir, created_at, extension_data, ...)` and `messages(id, session_id, role, content_json,
created_timestamp, timestamp, metadata_json, ...)`, `content_json` being a JSON list of the
message's contents.

One conversation per `sessions` row, its messages in `(timestamp, id)` order as Goose reads them
back. A message is a user's or an assistant's; its contents give the rest:

- `text` contents are the turn's text (joined); `thinking`, `redactedThinking`, `image`,
  `toolConfirmationRequest`, `systemNotification` and `conversationCompacted` are kept in the
  turn's row as they are;
- a `toolRequest` (or `frontendToolRequest`) `{id, toolCall: {status, value: {name, arguments}}}`
  is a call of the assistant's turn. A call Goose could not read (arguments that were not JSON, a
  name it refused) is stored with `status: "error"` and the error's text instead of the call: it
  is read as a call with no name and that text as its raw arguments, which do not parse;
- a `toolResponse` `{id, toolResult: {status, value | error}}` is a result, given to a tool turn
  (a user's message holding results is the tool turn; its text, if any, a user turn before it).
  A result's value is a `CallToolResult` (`{content, isError}`) or, from older versions, the
  list of contents itself; an `error` status is a failed result with the error's text. A user's
  message whose results come before its text (Goose merges a tool response and the user's next
  words into one message) gives the tool turn first.

Any other content type, a content that is not a JSON object, and a row whose `content_json` is
not a JSON list (not JSON, or nested too deeply to read, said so), are counted in the session's problems. Goose records no model per message. Read
from SQLite only; written back by `_goose_write`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from inspector.model import ARGUMENTS_LOST, ASSISTANT, TOOL, USER, AppliedFix, Session, ToolCall, ToolResult, Turn
from inspector.sources.base import WrittenFix
from inspector.sources.location import HistoryLocation
from inspector.sources.messages.arguments import parse_arguments
from inspector.sources.schemas._session_table import counted_sessions, session_ids
from inspector.sources.schemas.contract import HistoryReader, HistorySchema, SchemaWriter
from inspector.sources.sql.rows import Unreadable, decoded_json
from inspector.sources.sql.statements import Queries, Scope, Statements
from inspector.support.counted_words import counted

NAME = "goose"
ROLES = {"user": USER, "assistant": ASSISTANT}
SESSION_COLUMNS = {"id", "working_dir", "created_at", "extension_data"}
MESSAGE_COLUMNS = {"id", "session_id", "role", "content_json", "created_timestamp"}
REQUESTS = frozenset({"toolRequest", "frontendToolRequest"})
KEPT_CONTENTS = frozenset(
    {
        "thinking",
        "redactedThinking",
        "image",
        "toolConfirmationRequest",
        "systemNotification",
        "conversationCompacted",
    }
)


def recognise(db: Queries, tables: dict[str, set[str]]) -> bool:
    """`sessions` and `messages` tables with Goose's columns."""
    return tables.get("sessions", set()) >= SESSION_COLUMNS and tables.get("messages", set()) >= MESSAGE_COLUMNS


def conversations(db: Queries, location: HistoryLocation) -> Iterator[tuple[str, int]]:
    """Each session's id and message count, counted by the database."""
    return counted_sessions(db, "sessions", "messages", "created_at, id")


def sessions(db: Queries, location: HistoryLocation, only: str | None = None, start: int = 0) -> Iterator[Session]:
    """Each session (only the session `only` when given), from the `start`th on."""
    for session_id in session_ids(db, "sessions", "created_at, id", only, start):
        rows = db.rows(
            "SELECT id, role, content_json FROM messages WHERE session_id = ? ORDER BY timestamp, id", [session_id]
        )
        yield _session(location, session_id, rows)


def _session(location: HistoryLocation, session_id: str, rows: Iterator[Any]) -> Session:
    """The session of `rows` (`message id, role, content_json`, in order)."""
    turns: list[Turn] = []
    problems: Counter[tuple[str, str]] = Counter()  # (one of them, several): how many
    for position, (row_id, role, content_json) in enumerate(rows):
        contents = decoded_json(content_json)
        if role not in ROLES:
            problems[
                "message that is not a user's or an assistant's", "messages that are not a user's or an assistant's"
            ] += 1
        elif not isinstance(contents, list):
            why = contents.why if isinstance(contents, Unreadable) else "not a JSON list"
            problems[f"message whose contents are {why}", f"messages whose contents are {why}"] += 1
        else:
            turns.extend(_turns(position, str(row_id), ROLES[role], contents, problems))
    return Session(
        NAME,
        location.path,
        tuple(turns),
        document=location,
        session_id=session_id,
        problems=tuple(f"{counted(count, one, many)}, kept as stored" for (one, many), count in problems.items()),
    )


def _turns(
    position: int, row_id: str, role: str, contents: list[Any], problems: Counter[tuple[str, str]]
) -> list[Turn]:
    """The turns of one message: its own (a user's holding only results has none), then a tool
    turn with its results."""
    texts: list[str] = []
    calls: list[ToolCall] = []
    results: list[ToolResult] = []
    results_first = False
    for content in contents:
        if not isinstance(content, dict):
            problems["content that is not a JSON object", "contents that are not JSON objects"] += 1
            continue
        kind = content.get("type")
        if not isinstance(kind, str):
            problems["content without a type", "contents without a type"] += 1
        elif kind == "text":
            texts.append(content["text"] if isinstance(content.get("text"), str) else "")
        elif kind in REQUESTS:
            calls.append(tool_call(content))
        elif kind == "toolResponse":
            results_first = results_first or not texts
            results.append(tool_result(content))
        elif kind not in KEPT_CONTENTS:
            unknown = f"of a type this reader does not know ({kind!r})"
            problems[f"content {unknown}", f"contents {unknown}"] += 1
    raw = {"id": row_id, "content": contents}
    own = Turn(position, role, "".join(texts), row_id, tuple(calls), (), raw)
    if not results:
        return [own]
    answers = Turn(position, TOOL, "", row_id, (), tuple(results), {"id": row_id, "results": True})
    if not texts and not calls:
        return [answers]
    return [answers, own] if results_first and role == USER else [own, answers]


def _mapping(value: Any) -> dict[str, Any]:
    """`value` when it is a JSON object, else an empty one."""
    return value if isinstance(value, dict) else {}


def tool_call(content: dict[str, Any]) -> ToolCall:
    """The call a `toolRequest` holds; one Goose stored as an error, with the error's text."""
    call_id = content.get("id") if isinstance(content.get("id"), str) else None
    stored = _mapping(content.get("toolCall"))
    if stored.get("status") != "success":
        return ToolCall(call_id, "", stored.get("error"), None, ARGUMENTS_LOST)
    value = _mapping(stored.get("value"))
    name = value["name"] if isinstance(value.get("name"), str) else ""
    arguments = value.get("arguments", {})
    return ToolCall(call_id, name, arguments, parse_arguments(arguments))


def tool_result(content: dict[str, Any]) -> ToolResult:
    """The result a `toolResponse` holds: its contents, failed when Goose says so."""
    call_id = content.get("id") if isinstance(content.get("id"), str) else None
    stored = _mapping(content.get("toolResult"))
    if stored.get("status") != "success":
        return ToolResult(call_id, None, stored.get("error"), True)
    value = stored.get("value")
    if isinstance(value, dict):
        return ToolResult(call_id, None, value.get("content"), value.get("isError") is True)
    return ToolResult(call_id, None, value, False)


def changed_rows(db: Statements, session: Session) -> Scope:
    """The session's messages."""
    return [("messages", "session_id = ?", [session.session_id])]


def write(db: Statements, session: Session, fixes: Sequence[AppliedFix], stamp: str) -> list[WrittenFix]:
    """Write a repaired session back (`_goose_write`, loaded only when writing)."""
    from inspector.sources.schemas._goose_write import write_session

    return write_session(db, session, fixes, stamp)


SCHEMA = HistorySchema(
    NAME,
    recognise,
    HistoryReader(conversations, sessions),
    SchemaWriter(write, changed_rows, tables=("messages",)),
)
