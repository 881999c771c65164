"""A Qwen Code chat's threads, and writing one back: edited records re-rendered, new records
spliced into the `parentUuid` chain the way Qwen Code writes real ones, every other line kept
byte for byte.

A recovered call is an `assistant` record whose message is `{role: "model", parts: [text?,
functionCall...]}`; a result is a `tool_result` record whose message is `{role: "user", parts:
[{functionResponse: {id, name, response: {output} | {error}}}]}` with its `toolCallResult`
(`callId`, `status`). Each new record has a new uuid (uuid4) and the `sessionId`, `timestamp`,
`cwd`, `version` and `gitBranch` of the record it is placed beside. New records that answer the
turn before them (results for unanswered calls) go just after that turn's record, whose children
then hang from the last new record; any others go just before the next turn's record: the first
new record takes that record's parent and that record hangs from the last new one. So the chat
still reads as one chain from its last record (what `qwen --continue` follows). An assistant
record a repair left with no part is dropped and its children hang from its parent. Edited or
re-linked records are written as compact JSON, as Qwen Code writes them.
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from typing import Any, NamedTuple

from inspector.model import ASSISTANT, TOOL, Session, ToolResult, Turn
from inspector.sources.files.document import Document
from inspector.sources.messages.gemini_contents import new_contents, render_edited
from inspector.sources.messages.line_edits import LineEdits
from inspector.sources.messages.new_turn_runs import walk_repaired

Record = dict[str, Any]
ENVELOPE_KEYS = ("cwd", "version", "gitBranch")  # copied from the record beside, after `provenance`


class Thread(NamedTuple):
    """The records of one session of the file, in file order: `(index, record)` of every record
    of its chain, and whether it is a subagent's (sidechain)."""

    key: str | None
    sidechain: bool
    records: list[tuple[int, Record]]


def threads_of(records: list[Any]) -> list[Thread]:
    """The main thread (records not marked `isSidechain`), then each subagent's, keyed
    `agent-ID` by their `agentId` (`sidechain` without one). Threads with no record are left out."""
    main = Thread(None, False, [])
    side: dict[str, Thread] = {}
    for index, record in enumerate(records):
        if not isinstance(record, dict) or type(record.get("uuid")) is not str:
            continue
        if record.get("isSidechain") is not True:
            main.records.append((index, record))
            continue
        agent = record.get("agentId")
        key = f"agent-{agent}" if type(agent) is str else "sidechain"
        side.setdefault(key, Thread(key, True, [])).records.append((index, record))
    return [thread for thread in (main, *side.values()) if thread.records]


def render(document: Document, records: list[Any], sessions: list[Session], threads: list[Thread]) -> str:
    """The file's text with the sessions' repaired turns (`threads[session.index]` is the thread
    each was read from)."""
    plan = _Plan()
    for session in sessions:
        if any(turn.raw is None or turn.edited for turn in session.turns):
            _Splice(plan, [record for _, record in threads[session.index].records]).session(session.turns)
    return plan.text(document, records)


class _Plan(LineEdits):
    """What changes in the file: records replaced or dropped (`removed`), new records before or after one."""


class _Splice:
    """The changes to one thread: its edited turns re-rendered and its new turns spliced in."""

    def __init__(self, plan: _Plan, records: list[Record]) -> None:
        self.plan = plan
        self.records = records

    def session(self, turns: tuple[Turn, ...]) -> None:
        """Plan the session's changes, turn by turn."""
        walk_repaired(turns, self._place, self._edit)

    def _place(self, pending: list[Turn], previous: Turn | None, following: Turn | None) -> None:
        """New turns between two of the session's own: those answering the turn before go just
        after it, the others just before the turn they precede (after the last record at the end)."""
        lead = 0
        if previous is not None:
            while lead < len(pending) and (pending[lead].role == TOOL or following is None):
                lead += 1
            if lead:
                self._after(previous.raw, self._new_records(pending[:lead], previous.raw))
        if lead < len(pending):
            if following is not None:
                self._before(following.raw, self._new_records(pending[lead:], following.raw))
            else:
                anchor = self.records[-1]
                self._after(anchor, self._new_records(pending[lead:], anchor))

    def _before(self, target: Record, new: list[Record]) -> None:
        self._link(new, self.plan.current(target).get("parentUuid"))
        self.plan.set(target, "parentUuid", new[-1]["uuid"])
        self.plan.before[id(target)].extend(new)

    def _after(self, target: Record, new: list[Record]) -> None:
        earlier = self.plan.after[id(target)]
        parent = earlier[-1]["uuid"] if earlier else target["uuid"]
        children = [record for record in self.records if self.plan.current(record).get("parentUuid") == parent]
        self._link(new, parent)
        for child in children:
            self.plan.set(child, "parentUuid", new[-1]["uuid"])
        earlier.extend(new)

    def _link(self, new: list[Record], parent: Any) -> None:
        for record in new:
            record["parentUuid"] = parent
            self.plan.new.add(id(record))
            parent = record["uuid"]

    def _edit(self, turn: Turn) -> None:
        """Re-render the turn's message; an assistant record left with no part is dropped."""
        record: Record = turn.raw
        message = render_edited(replace(turn, raw=record["message"]))
        if message == record["message"]:
            return
        if not message.get("parts") and record["type"] == "assistant":
            parent = self.plan.current(record).get("parentUuid")
            for child in self.records:
                if self.plan.current(child).get("parentUuid") == record["uuid"]:
                    self.plan.set(child, "parentUuid", parent)
            self.plan.removed.add(id(record))
            return
        self.plan.set(record, "message", message)

    def _new_records(self, turns: list[Turn], anchor: Record) -> list[Record]:
        """The records of new turns (their parents are set when they are linked)."""
        out: list[Record] = []
        for turn in turns:
            if turn.role == TOOL:
                out.extend(_result_record(result, anchor) for result in turn.tool_results)
            elif turn.role == ASSISTANT:
                model = self._model_near(anchor)
                extra = {"model": model} if model else {}
                out.append(
                    _record(anchor, "assistant", "assistant_output", {**extra, "message": new_contents(turn)[0]})
                )
            else:
                message = {"role": "user", "parts": [{"text": turn.text}]}
                out.append(_record(anchor, "user", "real_user", {"message": message}))
        return out

    def _model_near(self, anchor: Record) -> Any:
        """The model of the last assistant record up to `anchor` (else the first one after it)."""
        index = next((i for i, record in enumerate(self.records) if record is anchor), len(self.records) - 1)
        for record in [*reversed(self.records[: index + 1]), *self.records[index + 1 :]]:
            if record.get("type") == "assistant" and type(record.get("model")) is str:
                return record["model"]
        return None


def _result_record(result: ToolResult, anchor: Record) -> Record:
    """A `tool_result` record for a result, as Qwen Code writes one."""
    content = result.content
    response = content if isinstance(content, dict) else {"error" if result.is_error else "output": content}
    part = {"functionResponse": {"id": result.call_id, "name": result.name, "response": response}}
    status = "error" if result.is_error else "success"
    body = {
        "message": {"role": "user", "parts": [part]},
        "toolCallResult": {"callId": result.call_id, "status": status, "resultDisplay": "", "executionStatus": status},
    }
    return _record(anchor, "tool_result", "tool_result", body)


def _record(anchor: Record, kind: str, provenance: str, body: Record) -> Record:
    """A new record as Qwen Code orders one: `uuid`, `parentUuid` (set when linked), the
    `sessionId` and `timestamp` of `anchor`, its type and provenance, the envelope of `anchor`,
    then `body`."""
    record: Record = {"uuid": str(uuid.uuid4()), "parentUuid": None}
    record.update((key, anchor[key]) for key in ("sessionId", "timestamp") if key in anchor)
    record.update({"type": kind, "provenance": provenance})
    record.update((key, anchor[key]) for key in ENVELOPE_KEYS if key in anchor)
    record.update(body)
    return record
