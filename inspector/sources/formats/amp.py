"""Amp threads: `~/.local/share/amp/threads/T-<uuid>.json` (`$XDG_DATA_HOME` moves `~/.local/share`),
one JSON document per thread.

Shape read: `{"v", "id": "T-<uuid>", "created", "title", "env", "messages": [...]}`. Each message
is `{"role", "messageId", "content": [blocks], "state", "usage", "meta"}`, its blocks Anthropic's
with Amp's own keys:
- `user` messages hold `text` blocks and the results of the calls before them, `tool_result`
  blocks `{"toolUseID", "run": {"status", "result", "error", "progress"}}` (an error result when
  the status is `error`, `cancelled` or `rejected-by-user`); a user message of results alone is a
  tool turn;
- `assistant` messages hold `thinking`, `text` and `tool_use` blocks `{"id", "name", "input"}`
  (the arguments, an object); the model is the message's `usage.model`;
- `info` messages (a summary, a note of Amp's) are kept in place, not turns.
A message of another role, or a block of a type the reader does not know, is counted in the
session's problems.

Positive marker: an object whose `id` is a thread id (`T-` then a uuid), with Amp's `created`
time and a `messages` list. The format is read-only: no check here shows Amp loading a
repaired thread back.
"""

from __future__ import annotations

from typing import Any

from inspector.model import ASSISTANT, TOOL, USER, Session, ToolCall, ToolResult, Turn
from inspector.sources.files.document import Document
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.arguments import parse_arguments
from inspector.sources.unread_records import Unread, UnreadTally
from inspector.support.counted_words import counted
from inspector.support.lazy_pattern import lazy_pattern

NAME = "amp"
THREAD_ID = lazy_pattern(r"T-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
FAILED = {"error", "cancelled", "rejected-by-user"}
KNOWN_BLOCKS = {
    USER: {"text", "tool_result", "image"},
    ASSISTANT: {"text", "thinking", "redacted_thinking", "tool_use"},
}


def claims(document: Document) -> bool:
    """An object with a `T-<uuid>` thread id, a numeric `created` and a `messages` list."""
    return is_thread(document.value)


def is_thread(value: Any) -> bool:
    """Whether a parsed JSON value is an Amp thread (the Anthropic format leaves these to this one)."""
    return (
        type(value) is dict
        and type(value.get("id")) is str
        and THREAD_ID.fullmatch(value["id"]) is not None
        and type(value.get("created")) in (int, float)
        and type(value.get("messages")) is list
    )


def read(document: Document) -> list[Session]:
    """The thread as one conversation."""
    thread = document.value
    turns: list[Turn] = []
    names: dict[str, str] = {}
    unknown_roles = 0
    unknown_blocks = 0
    for message in thread["messages"]:
        role = message.get("role") if type(message) is dict else None
        if role == "info":
            continue
        if role not in ("user", "assistant"):
            unknown_roles += 1
            continue
        turn, unknown = _message_turn(len(turns), message, names)
        turns.append(turn)
        unknown_blocks += unknown
    problems = []
    if unknown_roles:
        problems.append(
            counted(
                unknown_roles,
                "message of an unknown role not read as turns",
                "messages of an unknown role not read as turns",
            )
        )
    if unknown_blocks:
        problems.append(
            counted(
                unknown_blocks,
                "content block of an unknown type not read",
                "content blocks of an unknown type not read",
            )
        )
    session = Session(NAME, document.path, tuple(turns), (), document, 0, thread["id"], tuple(problems))
    return [session]


def _message_turn(position: int, message: dict[str, Any], names: dict[str, str]) -> tuple[Turn, int]:
    """The turn of one user or assistant message, and how many of its blocks were not read."""
    role = USER if message["role"] == "user" else ASSISTANT
    content = message.get("content")
    blocks = [block for block in content if type(block) is dict] if type(content) is list else []
    unknown = (len(content) if type(content) is list else 0) - len(blocks)
    unknown += sum(1 for block in blocks if block.get("type") not in KNOWN_BLOCKS[role])
    text = "".join(block["text"] for block in blocks if block.get("type") == "text" and type(block.get("text")) is str)
    calls = tuple(
        ToolCall(block.get("id"), block["name"], block.get("input"), parse_arguments(block.get("input")))
        for block in blocks
        if block.get("type") == "tool_use" and type(block.get("name")) is str
    )
    names.update((call.id, call.name) for call in calls if type(call.id) is str)
    results = tuple(_result(block, names) for block in blocks if block.get("type") == "tool_result")
    if role == USER and results and len(results) == len(blocks):
        role = TOOL
    message_id = message.get("messageId")
    turn_id = str(message_id) if type(message_id) in (int, str) else None
    return Turn(position, role, text, turn_id, calls, results, message, model=_model(message)), unknown


def _result(block: dict[str, Any], names: dict[str, str]) -> ToolResult:
    """One `tool_result` block: its run's result (or error, or progress) and whether it failed."""
    call_id = block.get("toolUseID")
    run = block.get("run")
    run = run if type(run) is dict else {}
    failed = run.get("status") in FAILED
    content = next((run[key] for key in ("result", "error", "progress") if run.get(key) is not None), None)
    name = names.get(call_id) if type(call_id) is str else None
    return ToolResult(call_id if type(call_id) is str else None, name, content, failed)


def _model(message: dict[str, Any]) -> str | None:
    """The model an assistant message names in its `usage`."""
    usage = message.get("usage")
    model = usage.get("model") if type(usage) is dict else None
    return model if type(model) is str else None


def survey(document: Document) -> tuple[Unread, ...]:
    """The messages of a role and the content blocks of a type the reader does not know (as
    `message/<role>` and `<role> block/<type>`), under the thread's format version (`v`)."""
    thread = document.value
    version = f"thread v{thread['v']}" if type(thread.get("v")) is int else None
    tally = UnreadTally({})
    for message in thread["messages"]:
        role = message.get("role") if type(message) is dict else None
        if role == "info":
            continue
        if role not in KNOWN_BLOCKS:
            tally.unknown_type(f"message/{role}" if type(role) is str else "message", version)
            continue
        blocks = message.get("content")
        for block in blocks if type(blocks) is list else ():
            kind = block.get("type") if type(block) is dict else None
            if kind not in KNOWN_BLOCKS[role]:
                tally.unknown_type(f"{role} block/{kind}" if type(kind) is str else f"{role} block", version)
    return tally.unread()


FORMAT = FileFormat(NAME, claims, read, survey=survey)
