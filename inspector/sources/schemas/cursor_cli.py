"""Cursor CLI's chat store (`cursor-agent`): `~/.cursor/chats/<md5 of the working folder>/<agent
id>/store.db`, one chat a database, with two tables: `meta(key, value)`, whose row `0` is a
hex-encoded JSON object (`agentId`, `latestRootBlobId`, `name`, `mode`, `createdAt`, ...), and
`blobs(id, data)`, content-addressed (an id is the SHA-256 of its data, in hex).

The chat's messages, in order, are the message blobs the latest root blob's tree reaches
(`_cursor_tree.py`; the CLI writes a new root after each message, so the older roots stay in
the table, unread). A message blob is a JSON object in the AI SDK's shape: `role` system, user,
assistant or tool; `content` a string or a list of parts:

- `text` parts are the turn's text (joined); `reasoning`, `redacted-reasoning`, `image` and
  `file` parts are kept in the turn's raw message as they are;
- a `tool-call {toolCallId, toolName, args}` is a call (its `args` missing: the raw string the
  model sent, `providerOptions.cursor.rawToolCallArgs`); `input` is read as `args`;
- a `tool-result {toolCallId, toolName, result, isError}` is a result (`output` is read as
  `result`).

A part of any other type, a part or message blob that is not a JSON object, a message blob nested
too deeply to read or that is not a message of those roles, and a blob the tree names but cannot
reach are counted in the session's problems; `scan --unknowns` lists the parts and messages, and
the keys of the meta row, the messages and parts the reader does not know (the store names no
version). Each turn's id is its blob's id (a message said again: the id with `#2`, `#3`, ...).
Read from SQLite only, never written.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, Session, ToolCall, ToolResult, Turn
from inspector.sources.location import HistoryLocation
from inspector.sources.messages.arguments import parse_arguments
from inspector.sources.schemas._cursor_tree import messages_reached
from inspector.sources.schemas.contract import HistoryReader, HistorySchema
from inspector.sources.sql.statements import Queries
from inspector.sources.unread_records import Unread, UnreadTally
from inspector.support.counted_words import counted

NAME = "cursor-cli"
ROLES = {"system": SYSTEM, "user": USER, "assistant": ASSISTANT, "tool": TOOL}
KEPT_PARTS = frozenset({"reasoning", "redacted-reasoning", "image", "file"})
UNKNOWN_CHAT = "cursor-chat"  # the conversation's id when the meta row names no agent
META = "meta"  # the meta row's keys are counted under this record type
NO_ROOT = (
    "meta row naming no latest root blob (no message read)",
    "meta rows naming no latest root blob (no message read)",
)
NOT_AN_OBJECT = (
    "message blob that is not a JSON object, kept as stored",
    "message blobs that are not JSON objects, kept as stored",
)
TOO_DEEP = (
    "message blob nested too deeply to read, kept as stored",
    "message blobs nested too deeply to read, kept as stored",
)
OTHER_ROLE = (
    "message blob that is not a system, user, assistant or tool message, kept as stored",
    "message blobs that are not a system, user, assistant or tool message, kept as stored",
)
PART_NOT_AN_OBJECT = (
    "part that is not a JSON object, kept as stored",
    "parts that are not JSON objects, kept as stored",
)
PART_WITHOUT_A_TYPE = (
    "part without a type (a text), kept as stored",
    "parts without a type (a text), kept as stored",
)
_MESSAGE = "role content id providerOptions"
_PART = "type providerOptions"
# The keys the CLI writes on its meta row, its messages (the AI SDK's, with Cursor's `id`) and
# their parts (the SDK's `input` and `output` beside `args` and `result`).
KNOWN_KEYS = {
    kind: frozenset(keys.split())
    for kind, keys in {
        META: "agentId latestRootBlobId name mode createdAt lastUsedModel",
        **{f"message/{role}": _MESSAGE for role in ROLES},
        "part/text": f"{_PART} text",
        "part/tool-call": f"{_PART} toolCallId toolName args input providerExecuted",
        "part/tool-result": f"{_PART} toolCallId toolName result output isError experimental_content",
        "part/reasoning": f"{_PART} text signature",
        "part/redacted-reasoning": f"{_PART} data",
        "part/image": f"{_PART} image mimeType mediaType",
        "part/file": f"{_PART} data mimeType mediaType filename",
    }.items()
}


def recognise(db: Queries, tables: dict[str, set[str]]) -> bool:
    """A `meta(key, value)` and a `blobs(id, data)` table."""
    return tables.get("meta", set()) >= {"key", "value"} and tables.get("blobs", set()) >= {"id", "data"}


def conversations(db: Queries, location: HistoryLocation) -> Iterator[tuple[str, int]]:
    """The store's one chat: its agent id and the messages its latest root reaches."""
    meta = _meta(db)
    root = meta.get("latestRootBlobId")
    count = sum(1 for _ in messages_reached(db, root, Counter(), count_only=True)) if isinstance(root, str) else 0
    yield _agent_id(meta), count


def sessions(db: Queries, location: HistoryLocation, only: str | None = None, start: int = 0) -> Iterator[Session]:
    """The store's one chat (none when `only` names another, or from the second on)."""
    meta = _meta(db)
    agent_id = _agent_id(meta)
    if start > 0 or (only is not None and only != agent_id):
        return
    problems: Counter[tuple[str, str]] = Counter()  # (one of them, several): how many
    turns: list[Turn] = []
    root = meta.get("latestRootBlobId")
    if not isinstance(root, str):
        problems[NO_ROOT] += 1
    else:
        said: Counter[str] = Counter()
        for blob_id, data in messages_reached(db, root, problems):
            said[blob_id] += 1
            turn_id = blob_id if said[blob_id] == 1 else f"{blob_id}#{said[blob_id]}"
            turn = _turn(len(turns), turn_id, data, problems)
            if turn is not None:
                turns.append(turn)
    yield Session(
        NAME,
        location.path,
        tuple(turns),
        document=location,
        session_id=agent_id,
        problems=tuple(counted(count, one, many) for (one, many), count in problems.items()),
    )


def survey(db: Queries, location: HistoryLocation) -> tuple[Unread, ...]:
    """The message roles and part types the reader does not know, and the keys it does not know on
    the meta row, the messages the latest root reaches and their parts (the store names no
    version)."""
    meta = _meta(db)
    tally = UnreadTally(KNOWN_KEYS)
    tally.keys(META, meta, None)
    root = meta.get("latestRootBlobId")
    for _, data in messages_reached(db, root, Counter()) if isinstance(root, str) else ():
        try:
            message = json.loads(data)
        except (UnicodeDecodeError, ValueError, RecursionError):
            message = None
        role = message.get("role") if isinstance(message, dict) else None
        kind = f"message/{role}" if isinstance(role, str) else "message"
        if not tally.knows(kind):
            tally.unknown_type(kind, None)
            continue
        tally.keys(kind, message, None)
        content = message.get("content")
        for part in content if isinstance(content, list) else ():
            part_type = part.get("type") if isinstance(part, dict) else None
            part_kind = f"part/{part_type}" if isinstance(part_type, str) else "part"
            if tally.knows(part_kind):
                tally.keys(part_kind, part, None)
            else:
                tally.unknown_type(part_kind, None)
    return tally.unread()


def _meta(db: Queries) -> dict[str, Any]:
    """The meta row `0`, decoded from hex and JSON; an empty object when it cannot be."""
    for (value,) in db.rows("SELECT value FROM meta WHERE key = '0'"):
        try:
            text = value.decode("ascii") if isinstance(value, bytes) else str(value)
            decoded = json.loads(bytes.fromhex(text))
        except (UnicodeDecodeError, ValueError, RecursionError):
            return {}
        return decoded if isinstance(decoded, dict) else {}
    return {}


def _agent_id(meta: dict[str, Any]) -> str:
    agent_id = meta.get("agentId")
    return agent_id if isinstance(agent_id, str) and agent_id else UNKNOWN_CHAT


def _turn(position: int, turn_id: str, data: bytes, problems: Counter[tuple[str, str]]) -> Turn | None:
    """The turn of one message blob; None (counted) when it is not a message this reader knows."""
    try:
        message = json.loads(data)
    except (UnicodeDecodeError, ValueError):
        message = None
    except RecursionError:
        problems[TOO_DEEP] += 1
        return None
    if not isinstance(message, dict):
        problems[NOT_AN_OBJECT] += 1
        return None
    role = message.get("role")
    if not isinstance(role, str) or role not in ROLES:
        problems[OTHER_ROLE] += 1
        return None
    content = message.get("content")
    if isinstance(content, str):
        return Turn(position, ROLES[role], content, turn_id, (), (), message)
    texts: list[str] = []
    calls: list[ToolCall] = []
    results: list[ToolResult] = []
    model: str | None = None
    for part in content if isinstance(content, list) else ():
        if not isinstance(part, dict):
            problems[PART_NOT_AN_OBJECT] += 1
            continue
        kind = part.get("type")
        if not isinstance(kind, str):
            problems[PART_WITHOUT_A_TYPE] += 1
        elif kind == "text" and isinstance(part.get("text"), str):
            texts.append(part["text"])
            model = model or _model(part)
        elif kind == "tool-call":
            calls.append(_call(part))
        elif kind == "tool-result":
            results.append(_result(part))
        elif kind not in KEPT_PARTS:
            unknown = f"of a type this reader does not know ({str(kind)!r}), kept as stored"
            problems[f"part {unknown}", f"parts {unknown}"] += 1
    return Turn(position, ROLES[role], "".join(texts), turn_id, tuple(calls), tuple(results), message, model=model)


def _call(part: dict[str, Any]) -> ToolCall:
    """A tool-call part as a call; without `args`, the raw string the model sent."""
    call_id, name = part.get("toolCallId"), part.get("toolName")
    if "args" in part or "input" in part:
        arguments = part["args"] if "args" in part else part["input"]
    else:
        arguments = _cursor_options(part).get("rawToolCallArgs", {})
    return ToolCall(
        call_id if isinstance(call_id, str) else None,
        name if isinstance(name, str) else "",
        arguments,
        parse_arguments(arguments),
    )


def _result(part: dict[str, Any]) -> ToolResult:
    """A tool-result part as a result, failed when it says so."""
    call_id, name = part.get("toolCallId"), part.get("toolName")
    return ToolResult(
        call_id if isinstance(call_id, str) else None,
        name if isinstance(name, str) else None,
        part["result"] if "result" in part else part.get("output"),
        part.get("isError") is True,
    )


def _cursor_options(part: dict[str, Any]) -> dict[str, Any]:
    options = part.get("providerOptions")
    cursor = options.get("cursor") if isinstance(options, dict) else None
    return cursor if isinstance(cursor, dict) else {}


def _model(part: dict[str, Any]) -> str | None:
    name = _cursor_options(part).get("modelName")
    return name if isinstance(name, str) else None


SCHEMA = HistorySchema(NAME, recognise, HistoryReader(conversations, sessions), survey=survey)
