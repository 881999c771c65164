"""Gemini CLI chat sessions (`~/.gemini/tmp/<project>/chats/session-*`), in both containers.

Up to about 0.20 a chat is one JSON document `{sessionId, projectHash, startTime, lastUpdated,
messages}`; 0.61 writes a JSON Lines log that is replayed into the messages (`gemini_cli_log`).
How messages become turns: `gemini_cli_messages`.

Writing keeps the container, and changes only messages a repair touched. A repaired message is
written whole over its (last) copy. Calls a repair recovers become one new `gemini` message just
before the fixed one, whose `toolCalls` hold them each with its "not executed" result (`status:
"cancelled"`; an error result makes it `"error"`, any other `"success"`); a result added for an
unanswered call goes into that call's `result`, and only a result whose call is unknown becomes a
new `user` message of `functionResponse` parts. A renamed call renames every `functionResponse`
answering its id. New messages get fresh ids (derived, never one the file names) and the
timestamp of the message they stand before.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from inspector.model import ASSISTANT, NOT_EXECUTED, TOOL, Session, ToolCall, ToolResult, Turn
from inspector.sources.files.document import Document
from inspector.sources.formats import _gemini_cli_log
from inspector.sources.formats._gemini_cli_messages import (
    TYPES,
    calls_home,
    content_text,
    is_call_part,
    is_text_part,
    read_turns,
    stored_calls,
)
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.text_parts import respread_parts
from inspector.sources.messages.turn_models import with_models
from inspector.sources.unread_records import Unread, UnreadTally

NAME = "gemini-cli"

# The keys of the messages read or known to be kept as they are (0.61); `scan --unknowns` lists others.
MESSAGE_KEYS = frozenset(
    {"id", "timestamp", "type", "content", "displayContent", "toolCalls", "thoughts", "tokens", "model"}
)

_IDS = uuid.UUID("5d1b6c3e-2f4a-4c8e-9a7b-6e0f1d2c3b4a")  # the namespace of the ids of new messages


def claims(document: Document) -> bool:
    """A log whose first record is the CLI's metadata (`sessionId` and `projectHash`, alone in a
    log of one line), or a document with a `sessionId` and messages typed user, gemini, info, ..."""
    value = document.value
    if document.is_jsonl:
        first = next((record for record in value if record is not None), None)
        return isinstance(first, dict) and _is_metadata(first)
    if not isinstance(value, dict) or type(value.get("sessionId")) is not str:
        return False
    if not isinstance(value.get("messages"), list):
        return _is_metadata(value) and "messages" not in value
    typed = [m for m in value["messages"][:50] if isinstance(m, dict)]
    return type(value.get("projectHash")) is str or (
        bool(typed) and all(type(m.get("type")) is str and m["type"] in TYPES for m in typed)
    )


def read(document: Document) -> list[Session]:
    """The one session of the file."""
    if document.is_jsonl:
        found = _gemini_cli_log.replay(document)
        messages, session_id, problems = found.messages, found.session_id, found.problems
    else:
        messages, session_id, problems = document.value.get("messages", []), document.value["sessionId"], []
    turns, notes = read_turns(messages)
    turns = with_models(turns, _model_finder(document))
    return [Session(NAME, document.path, tuple(turns), (), document, 0, session_id, tuple(problems + notes))]


def survey(document: Document) -> tuple[Unread, ...]:
    """The message types the reader does not know, and the keys of messages it does not know (the
    files do not say which version wrote them)."""
    tally = UnreadTally(dict.fromkeys(TYPES, MESSAGE_KEYS))
    messages = _gemini_cli_log.replay(document).messages if document.is_jsonl else document.value.get("messages", [])
    for message in messages:
        kind = message.get("type") if isinstance(message, dict) else None
        if type(kind) is str and kind in TYPES:
            tally.keys(kind, message, None)
        else:
            tally.unknown_type(kind, None)
    return tally.unread()


def _model_finder(document: Document) -> Callable[[Turn], Any]:
    """The model of a reply: its message's `model`, else that of the log's own line for the same
    message (a history the log sets again, as after a rewind, keeps no model)."""
    lines = document.value if document.is_jsonl else []
    models = {
        line.get("id"): line.get("model") for line in lines if type(line) is dict and line.get("type") == "gemini"
    }

    def model_of(turn: Turn) -> Any:
        raw = turn.raw if type(turn.raw) is dict else {}
        return raw.get("model") or models.get(raw.get("id"))

    return model_of


def write(document: Document, sessions: list[Session]) -> str:
    """The file's text with the session's repaired messages (see the module's docstring)."""
    found = _gemini_cli_log.replay(document) if document.is_jsonl else None
    if found is None and "messages" not in document.value:  # a log of its first line only: no message to repair
        return document.render(document.value)
    messages = found.messages if found else document.value["messages"]
    taken = found.ids if found else {m.get("id") for m in messages if isinstance(m, dict)}
    repair = _Repair(taken)
    repair.add(sessions[0].turns, messages)
    if found is not None:
        return _gemini_cli_log.rewrite(document, found, repair.replaced, repair.before, repair.pending)
    out: list[Any] = []
    for message in messages:
        out += repair.before.get(id(message), ())
        out.append(repair.replaced.get(id(message), message))
    return document.render({**document.value, "messages": out + repair.pending})


def _is_metadata(record: dict[str, Any]) -> bool:
    return type(record.get("sessionId")) is str and type(record.get("projectHash")) is str


class _Repair:
    """What a session's repaired turns change in its messages: messages written anew (`replaced`,
    by the `id()` of the original), new ones before an original (`before`) or after all (`pending`)."""

    def __init__(self, taken: set[Any]) -> None:
        self.replaced: dict[int, dict[str, Any]] = {}
        self.before: dict[int, list[dict[str, Any]]] = {}
        self.pending: list[dict[str, Any]] = []
        self._calls: dict[str | None, tuple[dict[str, Any], int, bool]] = {}  # call id -> (message, index, is new)
        self._renamed: dict[str, str] = {}  # call id -> its new name
        self._taken = taken

    def add(self, turns: tuple[Turn, ...], messages: list[Any]) -> None:
        """Take in every turn, then name results after renamed calls across all `messages`."""
        previous = None
        for turn in turns:
            if turn.raw is None:
                self._new(turn)
                continue
            if self.pending and turn.raw is not previous:  # not the results of the reply just before
                self.before.setdefault(id(turn.raw), []).extend(self._dated(turn.raw))
            previous = turn.raw
            if turn.role == ASSISTANT and calls_home(turn.raw) == "toolCalls":
                self._calls.update(
                    (call.get("id"), (turn.raw, i, False))
                    for i, call in stored_calls(turn.raw)
                    if type(call.get("id")) is str
                )
            if turn.edited and turn.role != TOOL:  # a result turn changes only by renames, done below
                self._edit(turn)
        if self.pending and messages:
            self.pending = self._dated(messages[-1] if isinstance(messages[-1], dict) else {})
        if self._renamed:
            for message in messages:
                self._rename_results(message)

    def _dated(self, neighbour: dict[str, Any]) -> list[dict[str, Any]]:
        """The pending messages, dated as `neighbour` (undated when it is); none stay pending."""
        records, self.pending = self.pending, []
        for record in records:
            record["timestamp"] = neighbour.get("timestamp")
            if record["timestamp"] is None:
                del record["timestamp"]
        return records

    def _record(self, message: dict[str, Any]) -> dict[str, Any]:
        """The message as it will be written (a copy, with copies of its calls, made once)."""
        if id(message) not in self.replaced:
            calls = message.get("toolCalls")
            copy = (
                {**message, "toolCalls": [dict(c) if isinstance(c, dict) else c for c in calls]}
                if isinstance(calls, list)
                else dict(message)
            )
            self.replaced[id(message)] = copy
        return self.replaced[id(message)]

    def _edit(self, turn: Turn) -> None:
        """Write the repaired text and calls of an original message, and any calls it was given."""
        message = turn.raw
        record = self._record(message)
        stored = stored_calls(message)
        in_toolcalls = calls_home(message) == "toolCalls"
        if in_toolcalls:
            for (index, call_record), call in zip(stored, turn.tool_calls):
                record["toolCalls"][index] = self._repaired(call_record, call)
        content = message.get("content")
        parts = content if isinstance(content, list) else [content] if isinstance(content, dict) else None
        added = turn.tool_calls[len(stored) :]  # calls a repair gave this reply
        if parts is None:
            if turn.text != content_text(content):
                record["content"] = turn.text
        else:  # content calls are its calls, or mirror its `toolCalls` (when as many): repaired alike
            in_content = sum(map(is_call_part, parts))
            repair_content = in_content > 0 and (not in_toolcalls or in_content == len(stored))
            calls = iter(turn.tool_calls if repair_content else ())

            def other(part: Any) -> Any:
                call = next(calls, None) if is_call_part(part) else None
                return part if call is None else {**part, "functionCall": self._repaired(part["functionCall"], call)}

            if turn.text != content_text(content):
                new_parts = respread_parts(parts, is_text_part, turn.text, other)
            else:
                new_parts = [other(part) for part in parts]
            if repair_content:
                new_parts += [{"functionCall": _call_entry(call)} for call in added]
            if new_parts != parts:
                record["content"] = new_parts
            if not in_toolcalls:
                return
        if added:
            entries = record.setdefault("toolCalls", [])
            self._calls.update((call.id, (record, len(entries) + i, True)) for i, call in enumerate(added))
            entries += [_call_entry(call) for call in added]

    def _repaired(self, stored: dict[str, Any], call: ToolCall) -> dict[str, Any]:
        """A stored call under the name and arguments the repaired `call` has."""
        if call.name == stored["name"] and call.arguments_raw is stored.get("args"):
            return stored
        if call.name != stored["name"] and type(stored.get("id")) is str:
            self._renamed[stored["id"]] = call.name
        return {**stored, "name": call.name, "args": call.arguments_raw}

    def _new(self, turn: Turn) -> None:
        """A message for a turn a repair added; results go into the calls they answer when known."""
        if turn.role == TOOL:
            loose = [result for result in turn.tool_results if not self._answer(result)]
            if loose:
                self.pending.append(self._message("user", [{"functionResponse": _response(r)} for r in loose]))
            return
        record = self._message("gemini" if turn.role == ASSISTANT else "user", turn.text)
        if turn.tool_calls:
            record["toolCalls"] = [_call_entry(call) for call in turn.tool_calls]
            self._calls.update((call.id, (record, i, True)) for i, call in enumerate(turn.tool_calls))
        self.pending.append(record)

    def _answer(self, result: ToolResult) -> bool:
        """Record `result` in the call it answers; False when no call of this session is known to."""
        found = self._calls.get(result.call_id) if result.call_id is not None else None
        if found is None:
            return False
        message, index, is_new = found
        record = message if is_new else self._record(message)
        status = "error" if result.is_error else "cancelled" if NOT_EXECUTED in str(result.content) else "success"
        record["toolCalls"][index] = {
            **record["toolCalls"][index],
            "result": [{"functionResponse": _response(result)}],
            "status": status,
        }
        return True

    def _message(self, kind: str, content: Any) -> dict[str, Any]:
        number = len(self._taken)
        while str(uuid.uuid5(_IDS, str(number))) in self._taken:
            number += 1
        new_id = str(uuid.uuid5(_IDS, str(number)))
        self._taken.add(new_id)
        return {"id": new_id, "timestamp": None, "type": kind, "content": content}

    def _rename_results(self, message: Any) -> None:
        """Name each `functionResponse` of `message` that answers a renamed call as that call."""
        if not isinstance(message, dict):
            return
        current = self.replaced.get(id(message), message)
        content = _renamed(current.get("content"), self._renamed)
        calls = current.get("toolCalls")
        results = (
            [_renamed(c.get("result"), self._renamed) if isinstance(c, dict) else None for c in calls]
            if isinstance(calls, list)
            else []
        )
        if content is None and not any(r is not None for r in results):
            return
        record = self._record(message)
        if content is not None:
            record["content"] = content
        for index, result in enumerate(results):
            if result is not None:
                record["toolCalls"][index] = {**record["toolCalls"][index], "result": result}


def _renamed(parts: Any, names: dict[str, str]) -> list[Any] | None:
    """`parts` with each `functionResponse` answering a renamed call under its new name, or None
    when none does."""
    if not isinstance(parts, list):
        return None
    out, changed = [], False
    for part in parts:
        response = part.get("functionResponse") if isinstance(part, dict) else None
        if isinstance(response, dict) and type(response.get("id")) is str:
            name = names.get(response["id"])
            if name is not None and response.get("name") != name:
                part, changed = {**part, "functionResponse": {**response, "name": name}}, True
        out.append(part)
    return out if changed else None


def _call_entry(call: ToolCall) -> dict[str, Any]:
    return {
        "id": call.id,
        "name": call.name,
        "args": call.arguments if call.arguments is not None else call.arguments_raw,
    }


def _response(result: ToolResult) -> dict[str, Any]:
    content = result.content
    response = content if isinstance(content, dict) else {"error" if result.is_error else "output": content}
    return {"id": result.call_id, "name": result.name, "response": response}


FORMAT = FileFormat(NAME, claims, read, write, survey)
