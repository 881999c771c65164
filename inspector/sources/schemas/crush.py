"""Crush's `crush.db` (in `~/.crush/` or a project's `.crush/`): `sessions(id, title,
prompt_tokens, completion_tokens, cost, ...)` and `messages(id, session_id, role, parts, model,
provider, created_at, ...)`, `parts` being a JSON list of `{type, data}`.

One conversation per `sessions` row (a sub-agent's session is one of its own, naming its
`parent_session_id`), its messages in `(created_at, rowid)` order as Crush lists them. A message
is a user's, an assistant's (its `model` is `Turn.model`) or a tool's, holding the results; its
parts give the rest:

- `text` parts are the turn's text (joined); `reasoning`, `finish`, `image_url`, `binary` and
  `shell_command` are kept in the turn's row as they are;
- a `tool_call` `{id, name, input, finished}` is a call, `input` being its arguments as the
  model sent them (a string, which does not parse when they were cut);
- a `tool_result` `{tool_call_id, name, content, is_error}` is a result, given to a tool turn.

Any other part type, a part that is not a JSON object, a message of another role, and a row
whose `parts` is not a JSON list (not JSON, or nested too deeply to read, said so) are counted in the session's problems. Read from SQLite only,
never written.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, Session, ToolCall, ToolResult, Turn
from inspector.sources.location import HistoryLocation
from inspector.sources.messages.arguments import parse_arguments
from inspector.sources.schemas._session_table import counted_sessions, session_ids
from inspector.sources.schemas.contract import HistoryReader, HistorySchema
from inspector.sources.sql.rows import Unreadable, decoded_json
from inspector.sources.sql.statements import Queries
from inspector.support.counted_words import counted

NAME = "crush"
ROLES = {"user": USER, "assistant": ASSISTANT, "tool": TOOL, "system": SYSTEM}
SESSION_COLUMNS = {"id", "title", "prompt_tokens", "completion_tokens", "cost"}
MESSAGE_COLUMNS = {"id", "session_id", "role", "parts", "model", "created_at"}
KEPT_PARTS = frozenset({"reasoning", "finish", "image_url", "binary", "shell_command"})


def recognise(db: Queries, tables: dict[str, set[str]]) -> bool:
    """`sessions` and `messages` tables with Crush's columns."""
    return tables.get("sessions", set()) >= SESSION_COLUMNS and tables.get("messages", set()) >= MESSAGE_COLUMNS


def conversations(db: Queries, location: HistoryLocation) -> Iterator[tuple[str, int]]:
    """Each session's id and message count, counted by the database."""
    return counted_sessions(db, "sessions", "messages", "created_at, id")


def sessions(db: Queries, location: HistoryLocation, only: str | None = None, start: int = 0) -> Iterator[Session]:
    """Each session (only the session `only` when given), from the `start`th on."""
    for session_id in session_ids(db, "sessions", "created_at, id", only, start):
        rows = db.rows(
            "SELECT id, role, parts, model FROM messages WHERE session_id = ? ORDER BY created_at, rowid",
            [session_id],
        )
        yield _session(location, session_id, rows)


def _session(location: HistoryLocation, session_id: str, rows: Iterator[Any]) -> Session:
    """The session of `rows` (`message id, role, parts, model`, in order)."""
    turns: list[Turn] = []
    problems: Counter[tuple[str, str]] = Counter()  # (one of them, several): how many
    for position, (message_id, role, stored, model) in enumerate(rows):
        parts = decoded_json(stored)
        if role not in ROLES:
            problems["message of a role this reader does not know", "messages of a role this reader does not know"] += 1
        elif not isinstance(parts, list):
            why = parts.why if isinstance(parts, Unreadable) else "not a JSON list"
            problems[f"message whose parts are {why}", f"messages whose parts are {why}"] += 1
        else:
            named = model if isinstance(model, str) and model and role == "assistant" else None
            turns.append(_turn(position, str(message_id), ROLES[role], parts, named, problems))
    return Session(
        NAME,
        location.path,
        tuple(turns),
        document=location,
        session_id=session_id,
        problems=tuple(f"{counted(count, one, many)}, kept as stored" for (one, many), count in problems.items()),
    )


def _turn(
    position: int, message_id: str, role: str, parts: list[Any], model: str | None, problems: Counter[tuple[str, str]]
) -> Turn:
    """The turn of one message: its text, its calls and (a tool's) its results."""
    texts: list[str] = []
    calls: list[ToolCall] = []
    results: list[ToolResult] = []
    for wrapped in parts:
        if not isinstance(wrapped, dict):
            problems["part that is not a JSON object", "parts that are not JSON objects"] += 1
            continue
        kind, data = wrapped.get("type"), wrapped.get("data")
        if not isinstance(kind, str) or not isinstance(data, dict):
            problems["part without a type or data", "parts without a type or data"] += 1
        elif kind == "text":
            texts.append(data["text"] if isinstance(data.get("text"), str) else "")
        elif kind == "tool_call":
            calls.append(tool_call(data))
        elif kind == "tool_result":
            results.append(tool_result(data))
        elif kind not in KEPT_PARTS:
            unknown = f"of a type this reader does not know ({kind!r})"
            problems[f"part {unknown}", f"parts {unknown}"] += 1
    raw = {"id": message_id, "parts": parts}
    return Turn(position, role, "".join(texts), message_id, tuple(calls), tuple(results), raw, model=model)


def _text_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def tool_call(data: dict[str, Any]) -> ToolCall:
    """The call a `tool_call` part records, its `input` string as the raw arguments."""
    arguments = data.get("input")
    name = data["name"] if isinstance(data.get("name"), str) else ""
    return ToolCall(_text_or_none(data.get("id")), name, arguments, parse_arguments(arguments))


def tool_result(data: dict[str, Any]) -> ToolResult:
    """The result a `tool_result` part records."""
    return ToolResult(
        _text_or_none(data.get("tool_call_id")),
        _text_or_none(data.get("name")),
        data.get("content"),
        data.get("is_error") is True,
    )


SCHEMA = HistorySchema(NAME, recognise, HistoryReader(conversations, sessions))
