"""Open WebUI's `webui.db`: table `chat(id, user_id, title, chat JSON, ...)`, one conversation per row.

`chat.history.messages` maps ids to `{id, parentId, childrenIds, role, content, ...}`; the
conversation shown is the branch from `history.currentId` back to the root (the linear
`chat.messages` copy when there is no history). Tool calls are serialised into the assistant's
content as `<details type="tool_calls" id=.. name=.. arguments=".." result="..">` tags with
HTML-escaped, JSON-encoded attributes: they become the turn's structured calls, answered by a tool
turn just after it, and the text between the tags becomes the turn's text. In SQLite or
PostgreSQL (where `chat` is `json`, read as text); written back by `_text_write`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, AppliedFix, Session, ToolCall, ToolResult, Turn
from inspector.sources.base import WrittenFix
from inspector.sources.location import HistoryLocation
from inspector.sources.messages.arguments import parse_arguments
from inspector.sources.schemas._open_webui_chat import shown_messages, split_content
from inspector.sources.schemas.contract import HistoryReader, HistorySchema, SchemaWriter
from inspector.sources.sql.rows import json_or_none
from inspector.sources.sql.statements import Queries, Scope, Statements

NAME = "open-webui"
ROLES: dict[str | None, str] = {"system": SYSTEM, "user": USER, "assistant": ASSISTANT}  # by a message's role, if any


def recognise(db: Queries, tables: dict[str, set[str]]) -> bool:
    """A `chat` table with Open WebUI's `chat` JSON column beside `user_id` and `title`."""
    return {"id", "user_id", "title", "chat"} <= tables.get("chat", set())


def conversations(db: Queries, location: HistoryLocation) -> Iterator[tuple[str, int]]:
    """Each chat's id and the number of messages on its shown branch."""
    for chat_id, document in db.rows(f"SELECT id, {db.text('chat')} FROM chat ORDER BY created_at, id"):
        yield str(chat_id), len(shown_messages(json_or_none(document)))


def sessions(db: Queries, location: HistoryLocation, only: str | None = None, start: int = 0) -> Iterator[Session]:
    """Each chat as a session (only the chat `only` when given), from the `start`th on."""
    where, params = (f"WHERE {db.text('id')} = ?", [only]) if only is not None else ("", [])
    for chat_id, document in db.rows(
        f"SELECT id, {db.text('chat')} FROM chat {where} ORDER BY created_at, id {db.offset}", [*params, start]
    ):
        yield _chat_session(location, str(chat_id), json_or_none(document))


def _chat_session(location: HistoryLocation, chat_id: str, chat: Any) -> Session:
    """The chat `chat_id` (its `chat` JSON decoded) as a session."""
    turns: list[Turn] = []
    for position, message in enumerate(shown_messages(chat)):
        turns.extend(_turns(position, message))
    return Session(NAME, location.path, tuple(turns), document=location, session_id=chat_id)


def _turns(position: int, message: dict[str, Any]) -> list[Turn]:
    role = ROLES.get(message.get("role"))
    content = message.get("content")
    if not isinstance(content, str):
        content = ""
    if role is None:
        return []
    texts, tags = split_content(content) if role == ASSISTANT else ([content], [])
    message_id = message.get("id") if isinstance(message.get("id"), str) else None
    calls = tuple(
        ToolCall(
            tag.get("id"),
            tag.get("name", ""),
            _decoded(tag.get("arguments")),
            parse_arguments(_decoded(tag.get("arguments"))),
        )
        for tag in tags
    )
    turn = Turn(
        position, role, "".join(texts), message_id, calls, (), {"id": message_id, "model": message.get("model")}
    )
    if not tags:
        return [turn]
    results = tuple(ToolResult(tag.get("id"), tag.get("name"), _decoded(tag.get("result"))) for tag in tags)
    return [turn, Turn(position, TOOL, "", message_id, (), results, {"id": message_id, "results": True})]


def _decoded(value: str | None) -> Any:
    """An attribute's value: JSON-decoded (twice when it holds a JSON string of JSON)."""
    decoded = json_or_none(value)
    if isinstance(decoded, str):
        again = json_or_none(decoded)
        return again if again is not None else decoded
    return value if decoded is None else decoded


def changed_rows(db: Statements, session: Session) -> Scope:
    """The chat's row, and its messages' mirror rows in newer Open WebUI."""
    key = session.session_id
    mirror = [("chat_message", "chat_id = ?", [key])] if db.has_table("chat_message") else []
    return [("chat", "id = ?", [key]), *mirror]


def write(db: Statements, session: Session, fixes: Sequence[AppliedFix], stamp: str) -> list[WrittenFix]:
    """Write a chat's edited turns back (`_text_write`, loaded only when writing)."""
    from inspector.sources.schemas._text_write import write_open_webui

    return write_open_webui(db, session, fixes, stamp)


SCHEMA = HistorySchema(
    NAME,
    recognise,
    HistoryReader(conversations, sessions),
    SchemaWriter(write, changed_rows, tables=("chat", "chat_message")),
)
