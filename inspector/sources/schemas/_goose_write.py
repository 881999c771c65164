"""Writing a repaired Goose session back to its `messages` rows, as Goose's storage writes a
message: `content_json` the message's list of contents as `serde_json::to_string` writes it
(compact, characters as they are), every other column left as it is.

- An edited turn's text goes to its message's first `text` content (any later ones are emptied).
- A call whose arguments a fix repaired, or which a fix renamed, gets them in its `toolRequest`
  (`toolCall: {status: "success", value: {name, arguments}}`); a call Goose stored with the
  `error` status (its arguments did not parse) becomes that call, still answered by the error.
- A call recovered from the text is a new `toolRequest` of the message it was written in, after
  its other contents; its result is a `toolResponse` at the front of the next message, the
  user's (Goose merges a tool response and the user's next words into one user message), or a
  new user message at the end of the session when the call was in its last message.
- A results turn's masked results go back to their `toolResponse` contents.

Rows not repaired are left byte for byte as they were.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from inspector.model import ASSISTANT, RECOVERED, TOOL, AppliedFix, Session, ToolCall, ToolResult, Turn
from inspector.sources.base import WrittenFix
from inspector.sources.messages.arguments import parse_arguments
from inspector.sources.schemas.contract import conversation_id
from inspector.sources.sql.rows import json_or_none
from inspector.sources.sql.statements import Statements

METADATA = {"userVisible": True, "agentVisible": True}
NO_NEXT_MESSAGE = "the message after the recovered call is not the user's: its result is kept in this audit row only"


def write_session(conn: Statements, session: Session, fixes: Sequence[AppliedFix], stamp: str) -> list[WrittenFix]:
    """Write the session's repaired messages; returns one audit row per fix."""
    session_id = conversation_id(session)
    writer = _MessageWriter(conn, session_id, datetime.fromisoformat(stamp))
    results: dict[str | None, ToolResult] = {
        result.call_id: result for turn in session.turns for result in turn.tool_results if result.call_id
    }
    recovered: list[ToolCall] = []
    unplaced: set[str] = set()
    for turn in session.turns:
        if turn.raw is None:  # a turn a repair added: its calls go to the next message
            recovered.extend(call for call in turn.tool_calls if turn.role == ASSISTANT)
            continue
        if turn.role == TOOL:
            if turn.edited:
                writer.results(turn.raw["id"], turn.tool_results)
            continue
        new_calls = [*recovered, *(call for call in turn.tool_calls if call.origin == RECOVERED)]
        if turn.edited or new_calls:
            writer.message(turn, new_calls)
        if new_calls and not writer.answer(turn.raw["id"], [_answer(call, results) for call in new_calls]):
            unplaced.add(turn.raw["id"])
        recovered = []
    return [_written(session, session_id, fix, unplaced) for fix in fixes]


def _written(session: Session, session_id: str, fix: AppliedFix, unplaced: set[str]) -> WrittenFix:
    turn = session.turn_at(fix.finding.turn)
    row = turn.raw.get("id") if turn is not None and isinstance(turn.raw, dict) else None
    note = NO_NEXT_MESSAGE if fix.recovered and row in unplaced else ""
    return WrittenFix(fix, session_id, "messages", row, note)


def _answer(call: ToolCall, results: dict[str | None, ToolResult]) -> ToolResult:
    return results.get(call.id) or ToolResult(call.id, call.name, "", True)


class _MessageWriter:
    """The `messages` rows of one session, rewritten as Goose writes a message's contents."""

    def __init__(self, conn: Statements, session_id: str, now: datetime) -> None:
        self.conn = conn
        self.session_id = session_id
        self.now = now.astimezone(UTC)
        self.rows: list[tuple[str, str, list[Any]]] = []  # (id, role, contents), in Goose's order
        for row_id, role, content_json in conn.execute(
            "SELECT id, role, content_json FROM messages WHERE session_id = ? ORDER BY timestamp, id", [session_id]
        ):
            contents = json_or_none(content_json)
            self.rows.append((str(row_id), role, contents if isinstance(contents, list) else []))

    def message(self, turn: Turn, new_calls: list[ToolCall]) -> None:
        """Write an edited message's text and calls, and add the calls recovered for it."""
        contents = [dict(content) if isinstance(content, dict) else content for content in self._stored(turn.raw["id"])]
        texts = [content for content in contents if isinstance(content, dict) and content.get("type") == "text"]
        for index, content in enumerate(texts):
            content["text"] = turn.text if index == 0 else ""
        requests = [
            c for c in contents if isinstance(c, dict) and c.get("type") in ("toolRequest", "frontendToolRequest")
        ]
        kept = [call for call in turn.tool_calls if call.origin != RECOVERED]
        for content, call in zip(requests, kept):
            content.update(_repaired_request(content, call))
        contents.extend(_request(call) for call in new_calls)
        self._update(turn.raw["id"], contents)

    def answer(self, message_id: str, answers: list[ToolResult]) -> bool:
        """Put the results of the calls recovered in `message_id` at the front of the next
        message, the user's, or in a new user message when it is the last; False when the next
        message is not the user's."""
        responses = [_response(result) for result in answers]
        ids = [row_id for row_id, _, _ in self.rows]
        following = ids.index(message_id) + 1 if message_id in ids else len(ids)
        if following == len(ids):
            self._insert(responses)
            return True
        row_id, role, contents = self.rows[following]
        if role != "user":
            return False
        self._update(row_id, [*responses, *contents])
        return True

    def results(self, message_id: str, answers: tuple[ToolResult, ...]) -> None:
        """Write a results turn's (masked) results into their `toolResponse` contents."""
        by_call = {result.call_id: result for result in answers}
        contents = self._stored(message_id)
        repaired = [_masked_response(content, by_call) for content in contents]
        if repaired != contents:
            self._update(message_id, repaired)

    def _stored(self, message_id: str) -> list[Any]:
        return next((contents for row_id, _, contents in self.rows if row_id == message_id), [])

    def _update(self, message_id: str, contents: list[Any]) -> None:
        self.conn.execute("UPDATE messages SET content_json = ? WHERE id = ?", [_stored(contents), int(message_id)])
        self.rows = [(r, role, contents if r == message_id else c) for r, role, c in self.rows]

    def _insert(self, contents: list[Any]) -> None:
        row_id = self.conn.insert(
            "messages",
            {
                "session_id": self.session_id,
                "role": "user",
                "content_json": _stored(contents),
                "created_timestamp": int(self.now.timestamp()),
                "timestamp": self.now.strftime("%Y-%m-%d %H:%M:%S"),
                "metadata_json": _stored(METADATA),
            },
        )
        self.rows.append((str(row_id), "user", contents))


def _repaired_request(content: dict[str, Any], call: ToolCall) -> dict[str, Any]:
    """A stored `toolRequest` with its repaired name and arguments (unchanged when not repaired)."""
    stored = _object(content.get("toolCall"))
    value = _object(stored.get("value"))
    parsed = parse_arguments(call.arguments_raw)
    repaired = {"status": "success", "value": {**value, "name": call.name, "arguments": parsed}}
    return content if parsed is None or repaired == stored else {**content, "toolCall": repaired}


def _request(call: ToolCall) -> dict[str, Any]:
    """A `toolRequest` holding a recovered call."""
    arguments = parse_arguments(call.arguments_raw) or {}
    return {
        "type": "toolRequest",
        "id": call.id,
        "toolCall": {"status": "success", "value": {"name": call.name, "arguments": arguments}},
    }


def _response(result: ToolResult) -> dict[str, Any]:
    """A `toolResponse` holding a recovered call's result, as a `CallToolResult`."""
    value = {"content": [{"type": "text", "text": _text(result.content)}], "isError": result.is_error}
    return {"type": "toolResponse", "id": result.call_id, "toolResult": {"status": "success", "value": value}}


def _masked_response(content: Any, by_call: dict[str | None, ToolResult]) -> Any:
    """A `toolResponse` with the content of its (masked) result."""
    if not isinstance(content, dict) or content.get("type") != "toolResponse" or content.get("id") not in by_call:
        return content
    stored = _object(content.get("toolResult"))
    result = by_call[content["id"]]
    if stored.get("status") != "success":
        return {**content, "toolResult": {**stored, "error": result.content}}
    value = stored.get("value")
    if isinstance(value, dict):
        return {**content, "toolResult": {**stored, "value": {**value, "content": result.content}}}
    return {**content, "toolResult": {**stored, "value": result.content}}


def _object(value: Any) -> dict[str, Any]:
    """`value` when it is a JSON object, else an empty one."""
    return value if isinstance(value, dict) else {}


def _text(content: Any) -> str:
    return content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)


def _stored(value: Any) -> str:
    """JSON as Goose stores it (`serde_json::to_string`: no spaces, characters as they are)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
