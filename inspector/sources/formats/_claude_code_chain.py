"""Writing a Claude Code session file back: edited events re-rendered, new events spliced into the
`parentUuid` chain the way Claude Code writes real ones, every other line kept byte for byte.

A recovered call is an assistant event holding its `tool_use` block (one event per call, sharing a
new `message.id`), then a user event holding its `tool_result` (with `toolUseResult` and
`sourceToolAssistantUUID`), each with a new uuid (uuid4) and the `sessionId`, `cwd`, `version`,
`gitBranch`, `timestamp` and the like of the event it is placed beside. New events that answer the
turn before them (results for unanswered calls) go just after that turn's last event, whose children
then hang from the last new event; any others (recovered calls and their results) go just before
the next turn's first event: the first new event takes that event's parent and that event hangs
from the last new event. So the file still reads as one chain (`claude --resume` loads it), in the
file's order. An event whose blocks a repair left empty is dropped and its children hang from its
parent. Edited or re-linked events are written as compact JSON, as Claude Code writes them.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from inspector.model import ASSISTANT, TOOL, Session, ToolCall, ToolResult, Turn
from inspector.sources.files.document import Document
from inspector.sources.messages import anthropic_messages
from inspector.sources.messages.arguments import parse_arguments
from inspector.sources.messages.line_edits import LineEdits
from inspector.sources.messages.new_turn_runs import walk_repaired
from inspector.sources.messages.text_parts import spread_text

Event = dict[str, Any]
HEAD_KEYS = ("isSidechain", "teamName", "agentName", "agentId")  # copied after parentUuid, as Claude Code orders them
TAIL_KEYS = ("sessionKind", "userType", "entrypoint", "cwd", "sessionId", "version", "gitBranch", "slug")
UNPARSED = "__unparsedToolInput"


def render(document: Document, records: list[Any], sessions: list[Session], threads: list[Any]) -> bytes:
    """The file's bytes with the sessions' repaired turns (`threads[session.index]` is the thread
    each was read from)."""
    plan = _Plan()
    for session in sessions:
        if any(turn.raw is None or turn.edited for turn in session.turns):
            _Splice(plan, threads[session.index].events).session(session.turns)
    plan.resolve_dropped(records)
    return plan.data(document, records)


class _Plan(LineEdits):
    """What changes in the file: events replaced or dropped, and new events before or after one."""

    def __init__(self) -> None:
        super().__init__()
        self.dropped: dict[str, Any] = {}  # uuid of an event left empty -> its parent

    def drop(self, event: Event) -> None:
        """Leave an event out; its children will hang from its parent."""
        self.dropped[event["uuid"]] = self.current(event).get("parentUuid")
        self.removed.add(id(event))

    def resolve_dropped(self, records: list[Any]) -> None:
        """Every event whose parent was dropped hangs from the nearest parent that was not."""
        if not self.dropped:
            return
        new = [event for batch in (*self.before.values(), *self.after.values()) for event in batch]
        for event in (*records, *new):
            if not isinstance(event, dict) or id(event) in self.removed:
                continue
            parent = first = self.current(event).get("parentUuid")
            seen: set[str] = set()
            while type(parent) is str and parent in self.dropped and parent not in seen:
                seen.add(parent)
                parent = self.dropped[parent]
            if parent != first:
                self.set(event, "parentUuid", parent)


class _Splice:
    """The changes to one thread: its edited turns re-rendered and its new turns spliced in."""

    def __init__(self, plan: _Plan, events: list[tuple[int, Event]]) -> None:
        self.plan = plan
        self.events = [event for _, event in events]
        self.children: defaultdict[str, list[Event]] | None = None  # built when first needed
        self.call_events: dict[str, str] = {}  # call id -> uuid of the event holding its tool_use
        self.turns: tuple[Turn, ...] = ()
        self.session_calls_known = False  # whether `call_events` holds the calls of the session's own events

    def session(self, turns: tuple[Turn, ...]) -> None:
        """Plan the session's changes, turn by turn."""
        self.turns = turns
        walk_repaired(turns, self._place, self._edit)

    def _call_event(self, call_id: str) -> str | None:
        """The uuid of the event holding the tool_use of `call_id`: a new event's, else one of the
        session's own (looked up once, when a result first answers a call no new event holds)."""
        if call_id not in self.call_events and not self.session_calls_known:
            self.session_calls_known = True
            own: dict[str, str] = {}
            for turn in self.turns:
                for event in turn.raw or ():
                    for block in _list(event["message"].get("content")):
                        if isinstance(block, dict) and block.get("type") == "tool_use" and type(block.get("id")) is str:
                            own[block["id"]] = event["uuid"]
                for call in turn.tool_calls if turn.raw else ():  # calls a repair gave it go in its last event
                    if isinstance(call.id, str):
                        own.setdefault(call.id, turn.raw[-1]["uuid"])
            for known, event_uuid in own.items():
                self.call_events.setdefault(known, event_uuid)  # a new event holding the call wins
        return self.call_events.get(call_id)

    def _place(self, pending: list[Turn], previous: Turn | None, following: Turn | None) -> None:
        """New turns between two of the session's own: those answering the turn before go just
        after it, the others just before the turn they precede."""
        lead = 0
        if previous is not None:
            while lead < len(pending) and (pending[lead].role == TOOL or following is None):
                lead += 1
        if lead and previous is not None:  # only a turn before takes new turns after it
            anchor = previous.raw[-1]
            self._after(anchor, self._new_events(pending[:lead], anchor))
        if lead < len(pending):
            if following is not None:
                anchor = following.raw[0]
                self._before(anchor, self._new_events(pending[lead:], anchor))
            elif self.events:
                anchor = self.events[-1]
                self._after(anchor, self._new_events(pending[lead:], anchor))

    def _before(self, target: Event, new: list[Event]) -> None:
        parent = self.plan.current(target).get("parentUuid")
        self._link(new, parent)
        self._set_parent(target, new[-1]["uuid"])
        self.plan.before[id(target)].extend(new)

    def _after(self, target: Event, new: list[Event]) -> None:
        earlier = self.plan.after[id(target)]
        parent = earlier[-1]["uuid"] if earlier else target["uuid"]
        children = list(self._children()[parent])
        self._link(new, parent)
        for child in children:
            self._set_parent(child, new[-1]["uuid"])
        earlier.extend(new)

    def _link(self, new: list[Event], parent: Any) -> None:
        for event in new:
            event["parentUuid"] = parent
            self.plan.new.add(id(event))
            if self.children is not None and type(parent) is str:
                self.children[parent].append(event)
            parent = event["uuid"]

    def _set_parent(self, event: Event, parent: str) -> None:
        if self.children is not None:
            old = self.plan.current(event).get("parentUuid")
            if type(old) is str:
                self.children[old] = [e for e in self.children[old] if e is not event]
            self.children[parent].append(event)
        self.plan.set(event, "parentUuid", parent)

    def _children(self) -> defaultdict[str, list[Event]]:
        if self.children is None:
            self.children = defaultdict(list)
            for event in self.events:
                parent = self.plan.current(event).get("parentUuid")
                if type(parent) is str:
                    self.children[parent].append(event)
        return self.children

    def _edit(self, turn: Turn) -> None:
        """Re-render the turn's own events; an event left with no block is dropped."""
        for event, content in zip(turn.raw, _edited_contents(turn)):
            if content is _UNCHANGED:
                continue
            if content == [] and event["type"] == "assistant":
                self.plan.drop(event)
                continue
            self.plan.set(event, "message", {**event["message"], "content": content})

    def _new_events(self, turns: list[Turn], anchor: Event) -> list[Event]:
        """The events of new turns (their parents are set when they are linked)."""
        out: list[Event] = []
        for turn in turns:
            if turn.role == TOOL:
                out.extend(self._result_event(result, anchor) for result in turn.tool_results)
            elif turn.role == ASSISTANT:
                message_id = f"msg_inspector_{uuid.uuid4().hex[:24]}"
                blocks = anthropic_messages.blocks_of(turn.text, turn.tool_calls)
                for block in blocks:
                    event = _assistant_event(message_id, block, anchor)
                    if block["type"] == "tool_use":
                        self.call_events[block["id"]] = event["uuid"]
                    out.append(event)
            else:
                out.append(_envelope(anchor, {"type": "user", "message": {"role": "user", "content": turn.text}}))
        return out

    def _result_event(self, result: ToolResult, anchor: Event) -> Event:
        block = anthropic_messages.result_block(result)
        after = {"toolUseResult": block["content"]}
        source = self._call_event(result.call_id) if isinstance(result.call_id, str) else None
        if source is not None:
            after["sourceToolAssistantUUID"] = source
        return _envelope(anchor, {"type": "user", "message": {"role": "user", "content": [block]}}, after)


_UNCHANGED: Any = object()


def _edited_contents(turn: Turn) -> list[Any]:
    """The new content of each of the turn's events (`_UNCHANGED` for one the edit leaves as it
    was): its text spread over the text blocks as `spread_text` spreads it (emptied blocks
    dropped), its calls' names and arguments written into their tool_use blocks, and any calls a
    repair gave the turn added to its last event."""
    events: tuple[Event, ...] = turn.raw
    contents = [event["message"].get("content") for event in events]
    if len(contents) == 1 and isinstance(contents[0], str):  # a plain user prompt
        if len(turn.tool_calls) == 0:
            return [turn.text if turn.text != contents[0] else _UNCHANGED]
        contents = [[{"type": "text", "text": contents[0]}] if contents[0] else []]
    texts = [
        block["text"] for content in contents for block in _list(content) if anthropic_messages.is_text_block(block)
    ]
    changed = turn.text != "".join(texts)
    new_texts = iter(spread_text(texts, turn.text) if changed else texts)
    calls: Iterator[ToolCall] = iter(turn.tool_calls)
    out = []
    for content in contents:
        blocks = []
        for block in _list(content):
            if anthropic_messages.is_text_block(block):
                text = next(new_texts)
                if text:
                    blocks.append(block if text == block["text"] else {**block, "text": text})
            elif isinstance(block, dict) and block.get("type") == "tool_use" and isinstance(block.get("name"), str):
                blocks.append(_repaired_call(block, next(calls, None)))
            else:
                blocks.append(block)
        out.append(blocks)
    if changed and not texts:  # text given to a reply that had none goes first
        out[0] = anthropic_messages.blocks_of(turn.text, ()) + out[0]
    out[-1] = out[-1] + anthropic_messages.blocks_of("", tuple(calls))  # calls a repair gave this turn
    return [blocks if blocks != content else _UNCHANGED for blocks, content in zip(out, contents)]


def unparsed_raw(value: Any) -> str | None:
    """The raw text of an input Claude Code could not parse (`{"__unparsedToolInput": {"raw":
    ...}}`), or None for any other input."""
    if isinstance(value, dict) and isinstance(value.get(UNPARSED), dict):
        raw = value[UNPARSED].get("raw")
        return raw if isinstance(raw, str) else None
    return None


def _repaired_call(block: Event, call: ToolCall | None) -> Event:
    """A tool_use block with the call's name and, when a repair replaced them, its arguments."""
    stored = block.get("input")
    raw = unparsed_raw(stored)
    raw = stored if raw is None else raw
    if call is None or (call.arguments_raw is raw and call.name == block["name"]):
        return block
    fixed = {**block, "name": call.name}
    if call.arguments_raw is not raw:
        fixed["input"] = _as_input(call.arguments_raw)
    return fixed


def _as_input(arguments: Any) -> Any:
    """Arguments as a tool_use input: an object; text that is not one is kept as Claude Code keeps it."""
    if not isinstance(arguments, str):
        return arguments if arguments is not None else {}
    parsed = parse_arguments(arguments)
    return parsed if parsed is not None else {UNPARSED: {"raw": arguments, "len": len(arguments.encode("utf-8"))}}


def _assistant_event(message_id: str, block: Event, anchor: Event) -> Event:
    model = anchor["message"].get("model") if isinstance(anchor.get("message"), dict) else None
    message = {
        "id": message_id,
        "type": "message",
        "role": "assistant",
        "model": model or "<synthetic>",
        "content": [block],
        "stop_reason": "tool_use" if block["type"] == "tool_use" else None,
        "stop_sequence": None,
        "usage": {"input_tokens": 0, "output_tokens": 0},
    }
    return _envelope(anchor, {"message": message, "type": "assistant"})


def _envelope(anchor: Event, body: Event, after: Event | None = None) -> Event:
    """A new event as Claude Code orders one: `parentUuid` (set when linked), the thread keys of
    `anchor`, the body, a new uuid and the timestamp of `anchor`, then `after` and the session keys
    of `anchor`."""
    event: Event = {"parentUuid": None}
    event.update((key, anchor[key]) for key in HEAD_KEYS if key in anchor)
    event.update(body)
    event["uuid"] = str(uuid.uuid4())
    if "timestamp" in anchor:
        event["timestamp"] = anchor["timestamp"]
    event.update(after or {})
    event.update((key, anchor[key]) for key in TAIL_KEYS if key in anchor)
    return event


def _list(content: Any) -> list[Any]:
    return content if isinstance(content, list) else []
