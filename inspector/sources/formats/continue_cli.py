"""Continue CLI sessions (`cn`): `~/.continue/sessions/<session id>.json` (`CONTINUE_GLOBAL_DIR`
moves `~/.continue`), listed in the folder's `sessions.json`.

Shape read: one JSON document `{"sessionId", "title", "workspaceDirectory", "history", "usage"}`;
`history` is a list of items `{"message", "contextItems", "toolCallStates"?, "editorState"?,
"conversationSummary"?}`. A `message` is OpenAI-like: `role` user, assistant, system (or `tool`,
`toolCallId`, in histories the editor extensions wrote), `content` a string or a list of parts
(`text`, `imageUrl`), an assistant's `toolCalls` OpenAI calls (arguments a JSON string) and its
`usage.model` the turn's model. The results live only in the calling item's `toolCallStates`:
`{toolCallId, toolCall, status: done | errored | canceled | ..., parsedArgs, output: [{content,
name}]}`. Turns follow the items as the CLI replays them to the model: an item with answered
calls is two turns, its message and then their results, so positions count items plus those.
A `thinking` message is kept in place, not a turn; an item of another role, or with no message,
is counted in the problems.

Positive marker: an object with a `sessionId`, a `workspaceDirectory` and a `history` whose items
each hold a `message` and a `contextItems` list. The CLI loads a session back (`cn --resume`), so
the format is written (`_continue_cli_write`), with no line break at the end, as the CLI writes it.

A call whose arguments were not JSON is stored as the CLI parsed it: `arguments: "{}"`, answered
`errored` by the tool's complaint (a required parameter missing); the raw text is not kept.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from inspector.errors import InspectorError
from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, Session, ToolCall, ToolResult, Turn
from inspector.sources.files.document import Document
from inspector.sources.formats._continue_cli_items import (
    ERROR_STATUSES,
    call_states,
    function_of,
    output_text,
    stored_calls,
)
from inspector.sources.formats._continue_cli_write import Unwritable, rebuilt_history
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.arguments import parse_arguments
from inspector.sources.messages.text_parts import content_text
from inspector.sources.messages.turn_models import model_name
from inspector.sources.unread_records import Unread, UnreadTally
from inspector.support.counted_words import counted
from inspector.support.safe_text import shown_name

NAME = "continue-cli"

ROLES = {"user": USER, "assistant": ASSISTANT, "system": SYSTEM, "tool": TOOL}
KEPT_ROLES = frozenset({"thinking"})
# The keys of a session and of a history item that 1.5 writes or reads.
SESSION_KEYS = frozenset({"sessionId", "title", "workspaceDirectory", "history", "usage", "mode", "chatModelTitle"})
ITEM_KEYS = frozenset(
    {"message", "contextItems", "editorState", "toolCallStates", "conversationSummary", "reasoning", "modifiers"}
)


def claims(document: Document) -> bool:
    """A session document: `sessionId`, `workspaceDirectory`, and history items of Continue's shape."""
    value = document.value
    if document.is_jsonl or not isinstance(value, dict) or type(value.get("sessionId")) is not str:
        return False
    history = value.get("history")
    if "workspaceDirectory" not in value or not isinstance(history, list):
        return False
    return all(
        isinstance(item, dict) and isinstance(item.get("message"), dict) and isinstance(item.get("contextItems"), list)
        for item in history[:50]
    )


def read(document: Document) -> list[Session]:
    """The one session of the document."""
    value = document.value
    turns: list[Turn] = []
    names: dict[str, str] = {}  # call id -> tool name, for the results
    odd: Counter[tuple[str, str]] = Counter()  # (one of them, several): how many
    position = 0
    for item in value["history"]:
        message = item.get("message") if isinstance(item, dict) else None
        role = ROLES.get(str(message.get("role"))) if isinstance(message, dict) else None
        if role is None or not isinstance(message, dict):
            if not (isinstance(message, dict) and message.get("role") in KEPT_ROLES):
                odd[_description(message)] += 1
            position += 1
            continue
        turns.append(_turn(position, item, message, role, names))
        results = _results(item, names)
        if results:
            position += 1
            turns.append(Turn(position, TOOL, "", None, (), results, item))
        position += 1
    problems = tuple(f"{counted(count, one, many)}; kept as written" for (one, many), count in odd.items())
    session_id = value["sessionId"]
    return [Session(NAME, document.path, tuple(turns), (), document, 0, session_id, problems)]


def survey(document: Document) -> tuple[Unread, ...]:
    """The keys of the session and of its history items the reader does not know, and the message
    roles it does not know (as `message/<role>`); the file names no version."""
    tally = UnreadTally({"session": SESSION_KEYS, "history item": ITEM_KEYS})
    tally.keys("session", document.value, None)
    for item in document.value["history"]:
        if isinstance(item, dict):
            tally.keys("history item", item, None)
            message = item.get("message")
            role = message.get("role") if isinstance(message, dict) else None
            if role not in ROLES and role not in KEPT_ROLES:
                tally.unknown_type(f"message/{role}" if type(role) is str else "message", None)
    return tally.unread()


def write(document: Document, sessions: list[Session]) -> str:
    """The document with the repaired history items, every other item kept as it was, and no
    line break at its end: the CLI writes its sessions so (`JSON.stringify`)."""
    try:
        history = rebuilt_history(document.value["history"], sessions[0].turns)
    except Unwritable as odd:
        raise InspectorError(
            f"{shown_name(document.path)}: a history item's {odd} is not a list, so it cannot hold the repair; "
            "nothing was written"
        ) from None
    return document.render({**document.value, "history": history}).removesuffix("\n")


def _turn(position: int, item: dict[str, Any], message: dict[str, Any], role: str, names: dict[str, str]) -> Turn:
    text = content_text(message.get("content"))
    if role == TOOL:
        call_id = message.get("toolCallId")
        call_id = call_id if type(call_id) is str else None
        result = ToolResult(call_id, names.get(call_id or ""), text)
        return Turn(position, TOOL, "", None, (), (result,), item)
    calls = tuple(_call(call, names) for call in stored_calls(message)) if role == ASSISTANT else ()
    usage = message.get("usage")
    model = model_name(usage.get("model")) if role == ASSISTANT and isinstance(usage, dict) else None
    return Turn(position, role, text, None, calls, (), item, model=model)


def _call(call: dict[str, Any], names: dict[str, str]) -> ToolCall:
    function = function_of(call)
    name = function["name"] if type(function.get("name")) is str else ""
    call_id = call.get("id") if type(call.get("id")) is str else None
    if call_id is not None:
        names[call_id] = name
    arguments = function.get("arguments")
    return ToolCall(call_id, name, arguments, parse_arguments(arguments))


def _results(item: dict[str, Any], names: dict[str, str]) -> tuple[ToolResult, ...]:
    """The results an item's `toolCallStates` record (a state still running has none)."""
    results = []
    for state in call_states(item):
        output = state.get("output")
        if not isinstance(output, list) and state.get("status") not in ERROR_STATUSES:
            continue
        call_id = state.get("toolCallId") if type(state.get("toolCallId")) is str else None
        failed = state.get("status") in ERROR_STATUSES
        results.append(ToolResult(call_id, names.get(call_id or ""), output_text(output), failed))
    return tuple(results)


def _description(message: Any) -> tuple[str, str]:
    """What one and several history items holding `message` (not one read) are called."""
    if not isinstance(message, dict):
        what = "without a message"
    else:
        role = message.get("role")
        what = f"of role {role!r}" if type(role) is str else "without a string role"
    return f"history item {what}, not read as turns", f"history items {what}, not read as turns"


FORMAT = FileFormat(NAME, claims, read, write, survey)
