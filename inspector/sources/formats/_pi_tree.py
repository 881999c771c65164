"""A Pi session's tree: the current branch, and writing a repaired branch back the way Pi appends
entries, so `pi --continue` and `pi --session FILE` load it.

Pi goes on from the file's last entry and gives the model the path from it back to the root by
`parentId` (`SessionManager._buildIndex`, `buildSessionContext`). A file of Pi's first session
format (no ids) is one branch, in file order.

Writing: an edited turn's entry gets its message re-rendered (`_pi_messages.edited_message`); an
assistant entry a repair left with nothing is dropped and the next entry of the branch hangs from
its parent. New turns become `message` entries, each with a fresh 8-hex id (derived from the entry
before it, never one the file holds), the `timestamp` of the entry beside it and the `parentId` of
the one before it: results answering the turn before them go just after that turn's entry, whose
next entry on the branch then hangs from the last new one; any others go just before the next
turn's entry, which then hangs from the last new one; new turns at the end go after the file's
last line, so Pi goes on from them. Changed and new entries are written as compact JSON, as Pi
writes a line.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from inspector.model import ASSISTANT, TOOL, Session, Turn
from inspector.sources.files.document import Document
from inspector.sources.formats._pi_messages import call_block, edited_message, result_content
from inspector.sources.messages.line_edits import LineEdits
from inspector.sources.messages.new_turn_runs import walk_repaired

Entry = dict[str, Any]
_IDS = uuid.UUID("5d0f6a2e-8b1c-4f3a-9e7d-2c4b6a8e0f13")  # the namespace of the ids of new entries


def current_branch(records: list[Any]) -> list[int]:
    """The indices of the entries on the current branch, root first: the path by `parentId` from
    the last entry with an id (every entry but the header, in a file whose entries have no ids)."""
    by_id: dict[str, int] = {}
    leaf = None
    for index, record in enumerate(records):
        if isinstance(record, dict) and record.get("type") != "session" and type(record.get("id")) is str:
            by_id[record["id"]] = index
            leaf = index
    if leaf is None:
        return [i for i, r in enumerate(records) if isinstance(r, dict) and r.get("type") != "session"]
    path: list[int] = []
    seen: set[int] = set()
    step: int | None = leaf
    while step is not None and step not in seen:
        seen.add(step)
        path.append(step)
        parent = records[step].get("parentId")
        step = by_id.get(parent) if type(parent) is str else None
    return path[::-1]


def render(document: Document, records: list[Any], sessions: list[Session]) -> str:
    """The file's text with the session's repaired turns."""
    plan = LineEdits()
    branch = [records[index] for index in current_branch(records)]
    last = next((record for record in reversed(records) if isinstance(record, dict)), None)
    taken = {record["id"] for record in records if isinstance(record, dict) and type(record.get("id")) is str}
    for session in sessions:
        if any(turn.raw is None or turn.edited for turn in session.turns):
            _Splice(plan, branch, last, taken).session(session.turns)
    return plan.text(document, records)


class _Splice:
    """The changes to the branch: its edited turns re-rendered and its new turns spliced in."""

    def __init__(self, plan: LineEdits, branch: list[Entry], last: Any, taken: set[str]) -> None:
        self.plan = plan
        self.branch = branch
        self.last = last  # the file's last record: new turns at the end go after it
        self.taken = taken

    def session(self, turns: tuple[Turn, ...]) -> None:
        """Plan the session's changes, turn by turn."""
        walk_repaired(turns, self._place, self._edit)

    def _place(self, pending: list[Turn], previous: Turn | None, following: Turn | None) -> None:
        """New turns between two of the session's own: results answering the turn before go just
        after it, the others just before the turn they precede (at the end: after the last line)."""
        lead = 0
        if previous is not None and following is not None:
            while lead < len(pending) and pending[lead].role == TOOL:
                lead += 1
            if lead:
                self._after(previous.raw, self._entries(pending[:lead], previous.raw))
        rest = pending[lead:]
        if rest and following is not None:
            self._before(following.raw, self._entries(rest, following.raw))
        elif rest:
            tip = self.branch[-1] if self.branch else None
            new = self._entries(rest, tip or {})
            self._link(new, tip["id"] if tip and type(tip.get("id")) is str else None)
            self.plan.after[id(self.last)].extend(new)

    def _before(self, target: Entry, new: list[Entry]) -> None:
        self._link(new, self.plan.current(target).get("parentId"))
        self.plan.set(target, "parentId", new[-1]["id"])
        self.plan.before[id(target)].extend(new)

    def _after(self, target: Entry, new: list[Entry]) -> None:
        earlier = self.plan.after[id(target)]
        parent = earlier[-1]["id"] if earlier else target.get("id")
        self._link(new, parent)
        for child in self._next_on_branch(parent):
            self.plan.set(child, "parentId", new[-1]["id"])
        earlier.extend(new)

    def _next_on_branch(self, parent: Any) -> list[Entry]:
        return [entry for entry in self.branch if self.plan.current(entry).get("parentId") == parent]

    def _link(self, new: list[Entry], parent: Any) -> None:
        for entry in new:
            entry["parentId"] = parent
            self.plan.new.add(id(entry))
            parent = entry["id"]

    def _edit(self, turn: Turn) -> None:
        """Re-render the turn's message; an assistant entry left with nothing is dropped (unless it
        is the file's last line, where Pi goes on from)."""
        entry: Entry = turn.raw
        if entry.get("type") != "message":
            return  # a summary's text is Pi's own, never repaired
        message = edited_message(turn, entry["message"])
        if message == entry["message"]:
            return
        if turn.role == ASSISTANT and not message.get("content") and entry is not self.last:
            for child in self._next_on_branch(entry.get("id")):
                self.plan.set(child, "parentId", self.plan.current(entry).get("parentId"))
            self.plan.removed.add(id(entry))
            return
        self.plan.set(entry, "message", message)

    def _entries(self, turns: list[Turn], anchor: Entry) -> list[Entry]:
        """The `message` entries of new turns (their parents are set when they are linked)."""
        out: list[Entry] = []
        for turn in turns:
            if turn.role == TOOL:
                out.extend(self._entry(anchor, _result_message(result, anchor)) for result in turn.tool_results)
            elif turn.role == ASSISTANT:
                out.append(self._entry(anchor, self._assistant_message(turn, anchor)))
            else:
                message = {"role": "user", "content": [{"type": "text", "text": turn.text}]}
                out.append(self._entry(anchor, {**message, "timestamp": _millis(anchor)}))
        return out

    def _entry(self, anchor: Entry, message: Entry) -> Entry:
        """A new `message` entry beside `anchor`, keyed as Pi orders one."""
        entry_id = self._fresh_id(f"{anchor.get('id')}:{len(self.taken)}")
        return {
            "type": "message",
            "id": entry_id,
            "parentId": None,
            "timestamp": anchor.get("timestamp"),
            "message": message,
        }

    def _fresh_id(self, seed: str) -> str:
        """An 8-hex id no entry of the file has."""
        candidate = uuid.uuid5(_IDS, seed).hex[:8]
        while candidate in self.taken:
            candidate = uuid.uuid5(_IDS, candidate).hex[:8]
        self.taken.add(candidate)
        return candidate

    def _assistant_message(self, turn: Turn, anchor: Entry) -> Entry:
        """An assistant message holding the turn's text and calls, from the reply's model as the
        nearest assistant message of the branch names it, with no usage counted."""
        content: list[Any] = [{"type": "text", "text": turn.text}] if turn.text else []
        content.extend(call_block(call) for call in turn.tool_calls)
        near = self._nearest_assistant(anchor)
        message: Entry = {"role": "assistant", "content": content}
        message.update((key, near[key]) for key in ("api", "provider", "model") if key in near)
        if turn.model and "model" not in message:
            message["model"] = turn.model
        message["usage"] = _NO_USAGE
        message["stopReason"] = "toolUse" if turn.tool_calls else "stop"
        message["timestamp"] = _millis(anchor)
        return message

    def _nearest_assistant(self, anchor: Entry) -> Entry:
        """The message of the last assistant entry of the branch up to `anchor`, else the first after it."""
        index = next((i for i, entry in enumerate(self.branch) if entry is anchor), len(self.branch) - 1)
        for entry in [*reversed(self.branch[: index + 1]), *self.branch[index + 1 :]]:
            message = entry.get("message")
            if isinstance(message, dict) and message.get("role") == "assistant":
                return message
        return {}


_NO_USAGE = {
    "input": 0,
    "output": 0,
    "cacheRead": 0,
    "cacheWrite": 0,
    "totalTokens": 0,
    "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0},
}


def _result_message(result: Any, anchor: Entry) -> Entry:
    """A `toolResult` message for a result, as Pi writes one."""
    return {
        "role": "toolResult",
        "toolCallId": result.call_id,
        "toolName": result.name,
        "content": result_content(result),
        "isError": result.is_error,
        "timestamp": _millis(anchor),
    }


def _millis(anchor: Entry) -> int:
    """The Unix time in ms of `anchor` (its message's, else its ISO `timestamp`'s), else 0."""
    message = anchor.get("message")
    stamp = message.get("timestamp") if isinstance(message, dict) else None
    if type(stamp) is int:
        return stamp
    iso = anchor.get("timestamp")
    try:
        return int(datetime.fromisoformat(str(iso).replace("Z", "+00:00")).timestamp() * 1000)
    except ValueError:
        return 0
