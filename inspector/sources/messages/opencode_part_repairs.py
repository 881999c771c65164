"""A repaired OpenCode session's parts, as OpenCode writes a part, shared by the writers of its
SQLite history (the schema `opencode`, which also logs each part it writes) and of its older JSON
storage (the format `opencode-storage`, one file per part): which parts change and what each
becomes; each writer then stores them its own way (`PartRepairs.store`).

- An edited turn's text goes to its message's first `text` part (any later ones are emptied).
- A call whose arguments a fix repaired, or which a fix renamed, gets them in its part's
  `state.input` (and the tool's name). A call OpenCode stored as the tool `invalid` (its arguments
  did not parse) becomes the call of the tool it named, failed with the error it was answered
  with (`state: {status: "error", input, error, time}`), as OpenCode stores a failed call.
- A call recovered from the text is a new `tool` part of the message, after its other parts,
  holding its result (`completed`, its output the note saying it was not executed or what an
  executor answered; `error` for a failed one); a result added for a call left unanswered settles
  that call's part the same way.
- A results turn's masked results go back to their parts' `output` or `error`.

Messages and every other part are left as they are; a new part's id is OpenCode's (`prt_` and an
ascending id: the time in milliseconds, a counter, and random letters).
"""

from __future__ import annotations

import json
import secrets
import string
from abc import ABC, abstractmethod
from collections.abc import Sequence
from itertools import count
from typing import Any

from inspector.model import ASSISTANT, RECOVERED, TOOL, AppliedFix, Session, ToolCall, ToolResult, Turn
from inspector.sources.messages.arguments import parse_arguments
from inspector.sources.messages.opencode_parts import INVALID_TOOL, mapping, stored_call

Parts = dict[str, list[tuple[str, dict[str, Any]]]]  # message id -> its parts (part id, part), in order
_LETTERS = string.digits + string.ascii_uppercase + string.ascii_lowercase
_counter = count(1)


class PartRepairs(ABC):
    """The parts of one session (`parts`), repaired by `repair` as OpenCode writes them: each part
    changed or added goes to `store`, which a writer implements."""

    def __init__(self, parts: Parts, now: int) -> None:
        self.parts = parts
        self.now = now
        self.written: dict[str, str] = {}  # message id -> the first part written in it

    @abstractmethod
    def store(self, message_id: str, part_id: str, part: dict[str, Any], new: bool) -> None:
        """Keep a part the repair changed (`new`: added, with the id `part_id` just made)."""

    def repair(self, session: Session) -> None:
        """Write every repaired part of `session`, read from these parts."""
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
                    self.results(turn.raw["id"], turn.tool_results)
                continue
            if turn.edited or recovered:
                self.message(turn, [*recovered, *(c for c in turn.tool_calls if c.origin == RECOVERED)], results)
            recovered = []
        for turn in session.turns:  # results added for calls left unanswered
            if turn.raw is None and turn.role == TOOL:
                self.settle(turn.tool_results)

    def message(self, turn: Turn, new_calls: list[ToolCall], results: dict[str | None, ToolResult]) -> None:
        """Write an edited message's text and calls, and add the calls recovered for it."""
        message_id = turn.raw["id"]
        parts = self.parts.get(message_id, [])
        texts = [(part_id, part) for part_id, part in parts if part.get("type") == "text"]
        for index, (part_id, part) in enumerate(texts):
            text = turn.text if index == 0 else ""
            if part.get("text") != text:
                self._changed(message_id, part_id, {**part, "text": text})
        stored = [(part_id, part) for part_id, part in parts if part.get("type") == "tool"]
        kept = [call for call in turn.tool_calls if call.origin != RECOVERED]
        for (part_id, part), call in zip(stored, kept):
            repaired = repaired_call(part, call)
            if repaired != part:
                self._changed(message_id, part_id, repaired)
        for call in new_calls:
            part_id = ascending_id("prt", self.now, max((part_id for part_id, _ in parts), default=""))
            self.store(message_id, part_id, new_call(call, results.get(call.id), self.now), True)
            self.written.setdefault(message_id, part_id)

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
                self._changed(message_id, part_id, {**part, "state": {**state, key: result.content}})

    def settle(self, answers: tuple[ToolResult, ...]) -> None:
        """Answer the parts of calls still pending or running with the results a fix added."""
        by_call = {result.call_id: result for result in answers}
        for message_id, parts in self.parts.items():
            for part_id, part in parts:
                state = mapping(part.get("state"))
                result = by_call.get(part.get("callID"))
                if part.get("type") == "tool" and result is not None and state.get("status") in ("pending", "running"):
                    self._changed(message_id, part_id, {**part, "state": settled(state, result, self.now)})

    def _changed(self, message_id: str, part_id: str, part: dict[str, Any]) -> None:
        self.store(message_id, part_id, part, False)
        self.written.setdefault(message_id, part_id)


def message_of(session: Session, fix: AppliedFix) -> Any:
    """The id of the message a fix's finding is in (None for a turn without one)."""
    turn = session.turn_at(fix.finding.turn)
    return turn.raw.get("id") if turn is not None and isinstance(turn.raw, dict) else None


def fixes_by_message(session: Session, fixes: Sequence[AppliedFix], written: dict[str, str]) -> list[str | None]:
    """For each fix, the first part written in its message (None when none was)."""
    return [written.get(message_of(session, fix)) for fix in fixes]


def repaired_call(part: dict[str, Any], call: ToolCall) -> dict[str, Any]:
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


def new_call(call: ToolCall, result: ToolResult | None, now: int) -> dict[str, Any]:
    """A `tool` part holding a recovered call and its result (`type`, `tool`, `callID`, `state`)."""
    state = {"status": "pending", "input": parse_arguments(call.arguments_raw) or {}}
    answer = result or ToolResult(call.id, call.name, "", True)
    return {"type": "tool", "tool": call.name, "callID": call.id, "state": settled(state, answer, now)}


def settled(state: dict[str, Any], result: ToolResult, now: int) -> dict[str, Any]:
    """A call's state once answered by `result`: `error` or `completed`, as OpenCode stores them."""
    time = {"start": (state.get("time") or {}).get("start", now), "end": now}
    if result.is_error:
        return {"status": "error", "input": state.get("input", {}), "error": _text(result.content), "time": time}
    return {
        "status": "completed",
        "input": state.get("input", {}),
        "output": _text(result.content),
        "title": "",
        "metadata": {},
        "time": time,
    }


def _text(content: Any) -> str:
    return content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)


def ascending_id(prefix: str, now: int, after: str = "") -> str:
    """An id as OpenCode makes one (`prt_…`, `evt_…`): 12 hex digits of the time in milliseconds
    and a counter, then 14 random letters, so later ids sort after earlier ones; after the id
    `after` too (the last part of a message, written by a clock ahead of this one)."""
    stamp = (now * 0x1000 + next(_counter) % 0x1000) % (1 << 48)
    previous = after.partition("_")[2][:12]
    if len(previous) == 12 and all(digit in string.hexdigits for digit in previous):
        stamp = max(stamp, min(int(previous, 16) + 1, (1 << 48) - 1))
    return f"{prefix}_{stamp:012x}{''.join(secrets.choice(_LETTERS) for _ in range(14))}"
