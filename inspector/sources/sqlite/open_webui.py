"""Open WebUI's `webui.db`: table `chat(id, user_id, title, chat JSON, ...)`, one conversation per row.

`chat.history.messages` maps ids to `{id, parentId, childrenIds, role, content, ...}`; the
conversation shown is the branch from `history.currentId` back to the root (the linear
`chat.messages` copy when there is no history). Tool calls are serialised into the assistant's
content as `<details type="tool_calls" id=.. name=.. arguments=".." result="..">` tags with
HTML-escaped, JSON-encoded attributes: they become the turn's structured calls, answered by a tool
turn just after it, and the text between the tags becomes the turn's text.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, Session, ToolCall, ToolResult, Turn
from inspector.sources.location import HistoryLocation
from inspector.sources.messages.records import parse_arguments, spread_text
from inspector.sources.sqlite.database import json_or_none

if TYPE_CHECKING:  # annotations only: sqlite_utils is imported when a database is opened
    import sqlite_utils

NAME = "open-webui"
ROLES = {"system": SYSTEM, "user": USER, "assistant": ASSISTANT}
DETAILS = re.compile(r'<details type="tool_calls"(?P<attributes>[^>]*)>.*?</details>\n?', re.DOTALL)
ATTRIBUTE = re.compile(r'(\w+)="([^"]*)"')


def matches(db: sqlite_utils.Database, tables: dict[str, set[str]]) -> bool:
    """A `chat` table with Open WebUI's `chat` JSON column beside `user_id` and `title`."""
    return {"id", "user_id", "title", "chat"} <= tables.get("chat", set())


def conversations(db: sqlite_utils.Database, source: HistoryLocation) -> Iterator[tuple[str, int]]:
    """Each chat's id and the number of messages on its shown branch."""
    for chat_id, document in db.execute("SELECT id, chat FROM chat ORDER BY created_at, id"):
        yield str(chat_id), len(shown_messages(json_or_none(document)))


def sessions(
    db: sqlite_utils.Database, source: HistoryLocation, only: str | None = None, start: int = 0
) -> Iterator[Session]:
    """Each chat as a session (only the chat `only` when given), from the `start`th on."""
    where, params = ("WHERE id = ?", [only]) if only is not None else ("", [])
    for chat_id, document in db.execute(
        f"SELECT id, chat FROM chat {where} ORDER BY created_at, id LIMIT -1 OFFSET ?", [*params, start]
    ):
        yield chat_session(source, str(chat_id), json_or_none(document))


def chat_session(source: HistoryLocation, chat_id: str, chat: Any) -> Session:
    """The chat `chat_id` (its `chat` JSON decoded) as a session; PostgreSQL's reader shares it."""
    turns: list[Turn] = []
    for position, message in enumerate(shown_messages(chat)):
        turns.extend(_turns(position, message))
    return Session(NAME, source.path, tuple(turns), document=source, session_id=chat_id)


def shown_messages(chat: Any) -> list[dict[str, Any]]:
    """The messages of the branch the chat shows, oldest first."""
    if not isinstance(chat, dict):
        return []
    history = chat.get("history") if isinstance(chat.get("history"), dict) else {}
    by_id = history.get("messages") if isinstance(history.get("messages"), dict) else {}
    current, branch, seen = history.get("currentId"), [], set()
    while current in by_id and current not in seen and isinstance(by_id[current], dict):
        seen.add(current)
        branch.append(by_id[current])
        current = by_id[current].get("parentId")
    if branch:
        return branch[::-1]
    linear = chat.get("messages")
    return [m for m in linear if isinstance(m, dict)] if isinstance(linear, list) else []


def split_content(content: str) -> tuple[list[str], list[dict[str, str]]]:
    """The text pieces around the `<details type="tool_calls">` tags, and each tag's attributes."""
    texts, tags, cursor = [], [], 0
    for match in DETAILS.finditer(content):
        texts.append(content[cursor : match.start()])
        tags.append({key: html.unescape(value) for key, value in ATTRIBUTE.findall(match["attributes"])})
        cursor = match.end()
    texts.append(content[cursor:])
    return texts, tags


def repaired_content(content: str, new_text: str, calls: Sequence[ToolCall]) -> str:
    """The assistant content with its text (the pieces around the details tags) replaced by
    `new_text`, spread over the pieces as `spread_text` does, and each tag's `name` and `arguments`
    taken from the turn's call in its place (a renamed call, repaired arguments); the tags' other
    attributes are kept as they were."""
    tags = [
        _with_call(match.group(0), calls[index] if index < len(calls) else None)
        for index, match in enumerate(DETAILS.finditer(content))
    ]
    texts = spread_text(split_content(content)[0], new_text)
    return "".join(text + tag for text, tag in zip(texts, tags + [""]))


def _with_call(tag: str, call: ToolCall | None) -> str:
    """A details tag with its `name` and (when a repair replaced them) `arguments` set from `call`,
    encoded as the tag had them (JSON, or JSON in a JSON string), HTML-escaped."""
    if call is None:
        return tag

    def attribute(match: re.Match) -> str:
        key, value = match.group(1), match.group(2)
        if key == "name":
            return f'name="{html.escape(call.name)}"'
        if key == "arguments" and isinstance(call.arguments_raw, dict):
            encoded = json.dumps(call.arguments_raw, ensure_ascii=False)
            twice = isinstance(json_or_none(html.unescape(value)), str)
            return f'arguments="{html.escape(json.dumps(encoded, ensure_ascii=False) if twice else encoded)}"'
        return match.group(0)

    opening = tag[: tag.index(">")]  # the attributes end at the first '>'
    return ATTRIBUTE.sub(attribute, opening) + tag[len(opening) :]


def _turns(position: int, message: dict[str, Any]) -> list[Turn]:
    role = ROLES.get(message.get("role"))
    content = message.get("content") if isinstance(message.get("content"), str) else ""
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
