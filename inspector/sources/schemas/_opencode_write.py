"""Writing a repaired OpenCode (or Kilo CLI) session back to its `part` rows, as OpenCode writes a
part: its `data` JSON (compact, as `JSON.stringify` writes it) and `time_updated`, and, where
the database logs its sessions' events (`event`, `event_sequence`), a `message.part.updated.1`
event for each part written, next in the session's sequence, as OpenCode's sync log records one.

- An edited turn's text goes to its message's first `text` part (any later ones are emptied).
- A call whose arguments a fix repaired, or which a fix renamed, gets them in its part's
  `state.input` (and the tool's name). A call OpenCode stored as the tool `invalid` (its arguments
  did not parse) becomes the call of the tool it named, failed with the error it was answered
  with (`state: {status: "error", input, error, time}`), as OpenCode stores a failed call.
- A call recovered from the text is a new `tool` part of the message, after its other parts,
  holding its result (`completed`, its output the note saying it was not executed or what an executor answered; `error` for a failed one);
  a result added for a call left unanswered settles that call's part the same way.
- A results turn's masked results go back to their parts' `output` or `error`; a secret masked in
  the session is masked in its events too (they hold copies of its parts as they were).

Messages and every other part are left as they are; a part's id is OpenCode's (`prt_` and an
ascending id: the time in milliseconds, a counter, and random letters).
"""

from __future__ import annotations

import json
import secrets
import string
from collections.abc import Sequence
from datetime import datetime
from itertools import count
from typing import Any

from inspector.model import (
    ASSISTANT,
    RECOVERED,
    TOOL,
    AppliedFix,
    Session,
    ToolCall,
    ToolResult,
    Turn,
    masked_text,
)
from inspector.sources.base import WrittenFix
from inspector.sources.messages.arguments import parse_arguments
from inspector.sources.messages.opencode_parts import INVALID_TOOL, mapping, stored_call
from inspector.sources.schemas.contract import conversation_id
from inspector.sources.sql.rows import json_or_none
from inspector.sources.sql.statements import Statements

PART_EVENT = "message.part.updated.1"
_LETTERS = string.digits + string.ascii_uppercase + string.ascii_lowercase
_counter = count(1)


def write_session(conn: Statements, session: Session, fixes: Sequence[AppliedFix], stamp: str) -> list[WrittenFix]:
    """Write the session's repaired parts; returns one audit row per fix."""
    session_id = conversation_id(session)
    now = int(datetime.fromisoformat(stamp).timestamp() * 1000)
    writer = _PartWriter(conn, session_id, now)
    results: dict[str | None, ToolResult] = {
        result.call_id: result for turn in session.turns for result in turn.tool_results if result.call_id
    }
    recovered: list[ToolCall] = []
    for turn in session.turns:
        if turn.raw is None:  # a turn a repair added: its calls go to the next message's parts
            recovered.extend(call for call in turn.tool_calls if turn.role == ASSISTANT)
            continue
        if turn.role == TOOL:
            if turn.edited:
                writer.results(turn.raw["id"], turn.tool_results)
            continue
        if turn.edited or recovered:
            writer.message(turn, [*recovered, *(c for c in turn.tool_calls if c.origin == RECOVERED)], results)
        recovered = []
    for turn in session.turns:  # results added for calls left unanswered
        if turn.raw is None and turn.role == TOOL:
            writer.settle(turn.tool_results)
    writer.mask_log(session.masked)
    return [WrittenFix(fix, session_id, "part", writer.written.get(_message_of(session, fix))) for fix in fixes]


def _message_of(session: Session, fix: AppliedFix) -> Any:
    turn = session.turn_at(fix.finding.turn)
    return turn.raw.get("id") if turn is not None and isinstance(turn.raw, dict) else None


class _PartWriter:
    """The `part` rows of one session, written as OpenCode writes them (with its event log)."""

    def __init__(self, conn: Statements, session_id: str, now: int) -> None:
        self.conn = conn
        self.session_id = session_id
        self.now = now
        self.written: dict[str, str] = {}  # message id -> the first part written in it
        self.parts: dict[str, list[tuple[str, dict[str, Any]]]] = {}
        for part_id, message_id, data in conn.execute(
            "SELECT id, message_id, data FROM part WHERE session_id = ? ORDER BY message_id, id", [session_id]
        ):
            part = json_or_none(data)
            self.parts.setdefault(message_id, []).append((part_id, part if isinstance(part, dict) else {}))
        self.logged = conn.has_table("event") and conn.has_table("event_sequence") and self._sequence() is not None

    def message(self, turn: Turn, new_calls: list[ToolCall], results: dict[str | None, ToolResult]) -> None:
        """Write an edited message's text and calls, and add the calls recovered for it."""
        message_id = turn.raw["id"]
        parts = self.parts.get(message_id, [])
        texts = [(part_id, part) for part_id, part in parts if part.get("type") == "text"]
        for index, (part_id, part) in enumerate(texts):
            text = turn.text if index == 0 else ""
            if part.get("text") != text:
                self._update(message_id, part_id, {**part, "text": text})
        stored = [(part_id, part) for part_id, part in parts if part.get("type") == "tool"]
        kept = [call for call in turn.tool_calls if call.origin != RECOVERED]
        for (part_id, part), call in zip(stored, kept):
            repaired = _repaired_call(part, call)
            if repaired != part:
                self._update(message_id, part_id, repaired)
        for call in new_calls:
            self._insert(message_id, _new_call(call, results.get(call.id), self.now))

    def results(self, message_id: str, answers: tuple[ToolResult, ...]) -> None:
        """Write a results turn's (masked) results into their parts."""
        by_call = {result.call_id: result for result in answers}
        for part_id, part in self.parts.get(message_id, []):
            result = by_call.get(part.get("callID"))
            state = part.get("state")
            if result is None or part.get("type") != "tool" or not isinstance(state, dict):
                continue
            key = "error" if state.get("status") == "error" else "output"
            if key in state and state[key] != result.content:
                self._update(message_id, part_id, {**part, "state": {**state, key: result.content}})

    def settle(self, answers: tuple[ToolResult, ...]) -> None:
        """Answer the parts of calls still pending or running with the results a fix added."""
        by_call = {result.call_id: result for result in answers}
        for message_id, parts in self.parts.items():
            for part_id, part in parts:
                state = mapping(part.get("state"))
                result = by_call.get(part.get("callID"))
                if part.get("type") == "tool" and result is not None and state.get("status") in ("pending", "running"):
                    self._update(message_id, part_id, {**part, "state": _settled(state, result, self.now)})

    def mask_log(self, masks: tuple[tuple[str, str], ...]) -> None:
        """Mask the secrets a fix masked in the session's earlier events too, which hold copies of
        its parts as they were."""
        if not masks or not self.logged:
            return
        for event_id, data in self.conn.execute(
            "SELECT id, data FROM event WHERE aggregate_id = ?", [self.session_id]
        ).fetchall():
            masked = masked_text(data, masks) if isinstance(data, str) else data
            if masked != data:
                self.conn.execute("UPDATE event SET data = ? WHERE id = ?", [masked, event_id])

    def _update(self, message_id: str, part_id: str, part: dict[str, Any]) -> None:
        self.conn.execute("UPDATE part SET data = ?, time_updated = ? WHERE id = ?", [_stored(part), self.now, part_id])
        self._written(message_id, part_id, part)

    def _insert(self, message_id: str, part: dict[str, Any]) -> None:
        part_id = ascending_id("prt", self.now)
        self.conn.insert(
            "part",
            {
                "id": part_id,
                "message_id": message_id,
                "session_id": self.session_id,
                "time_created": self.now,
                "time_updated": self.now,
                "data": _stored(part),
            },
        )
        self._written(message_id, part_id, part)

    def _written(self, message_id: str, part_id: str, part: dict[str, Any]) -> None:
        self.written.setdefault(message_id, part_id)
        if not self.logged:
            return
        seq = (self._sequence() or 0) + 1
        event = {
            "sessionID": self.session_id,
            "part": {"id": part_id, "sessionID": self.session_id, "messageID": message_id, **part},
            "time": self.now,
        }
        self.conn.insert(
            "event",
            {
                "id": ascending_id("evt", self.now),
                "aggregate_id": self.session_id,
                "seq": seq,
                "type": PART_EVENT,
                "data": _stored(event),
            },
        )
        self.conn.execute("UPDATE event_sequence SET seq = ? WHERE aggregate_id = ?", [seq, self.session_id])

    def _sequence(self) -> int | None:
        row = self.conn.execute("SELECT seq FROM event_sequence WHERE aggregate_id = ?", [self.session_id]).fetchone()
        return None if row is None else int(row[0])


def _repaired_call(part: dict[str, Any], call: ToolCall) -> dict[str, Any]:
    """The part of a stored call with its repaired name and arguments (an `invalid` call becomes
    the failed call of the tool it named)."""
    state = mapping(part.get("state"))
    name, arguments = stored_call(part.get("tool"), state)
    parsed = parse_arguments(call.arguments_raw)
    if name == call.name and (arguments == call.arguments_raw or parsed is None):
        return part
    new_input = parsed if parsed is not None else state.get("input")
    if part.get("tool") == INVALID_TOOL:
        failed = {"status": "error", "input": new_input, "error": state.get("output", "")}
        state = {**failed, **{key: state[key] for key in ("metadata", "time") if key in state}}
        return {**part, "tool": call.name, "state": state}
    return {**part, "tool": call.name, "state": {**state, "input": new_input}}


def _new_call(call: ToolCall, result: ToolResult | None, now: int) -> dict[str, Any]:
    """A `tool` part holding a recovered call and its result."""
    state = {"status": "pending", "input": parse_arguments(call.arguments_raw) or {}}
    answer = result or ToolResult(call.id, call.name, "", True)
    return {"type": "tool", "tool": call.name, "callID": call.id, "state": _settled(state, answer, now)}


def _settled(state: dict[str, Any], result: ToolResult, now: int) -> dict[str, Any]:
    """A call's state once answered by `result`: `error` or `completed`, as OpenCode stores them."""
    time = {"start": (state.get("time") or {}).get("start", now), "end": now}
    if result.is_error:
        return {"status": "error", "input": state.get("input", {}), "error": _text(result.content), "time": time}
    content = _text(result.content)
    return {
        "status": "completed",
        "input": state.get("input", {}),
        "output": content,
        "title": "",
        "metadata": {},
        "time": time,
    }


def _text(content: Any) -> str:
    return content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)


def _stored(value: dict[str, Any]) -> str:
    """JSON as OpenCode stores it (`JSON.stringify`: no spaces, characters as they are)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def ascending_id(prefix: str, now: int) -> str:
    """An id as OpenCode makes one (`prt_…`, `evt_…`): 12 hex digits of the time in milliseconds
    and a counter, then 14 random letters, so later ids sort after earlier ones."""
    stamp = (now * 0x1000 + next(_counter) % 0x1000) % (1 << 48)
    return f"{prefix}_{stamp:012x}{''.join(secrets.choice(_LETTERS) for _ in range(14))}"
