"""Codex's own copies of a reply's text, made to match a repaired reply.

Besides the `response_item` message the model is sent again on resume, Codex keeps a reply's text
in its events, from which it draws the conversation it shows: the `item_completed` event of the
`AgentMessage` (the message's id), `task_complete`'s `last_agent_message`, and in older rollouts
an `agent_message` event. A repair that changes the reply's text (a fake result stripped, leaked
markup taken out) changes those copies too, so what Codex shows on resume is what the model is
sent; a copy that holds other text than the reply's as read is left alone, as is every other line.
"""

from __future__ import annotations

from typing import Any

from inspector.model import ASSISTANT, Turn
from inspector.sources.messages.responses_items import message_text

EVENT_LINE = "event_msg"


def shown_as_repaired(records: list[Any], turns: tuple[Turn, ...]) -> list[Any]:
    """`records` (the rollout's lines, repaired) with each repaired reply's copies in Codex's
    events holding its repaired text; the lines that change nothing are the very same objects."""
    by_id: dict[str, tuple[str, str]] = {}  # a repaired reply's message id -> its text as read, repaired
    for turn in turns:
        item = turn.raw.get("payload") if turn.edited and turn.role == ASSISTANT and type(turn.raw) is dict else None
        if type(item) is dict and type(item.get("id")) is str and isinstance(item.get("content"), list):
            read = message_text(item["content"])
            if read != turn.text:
                by_id[item["id"]] = (read, turn.text)
    if not by_id:
        return records
    by_text = dict(by_id.values())
    return [_event_repaired(record, by_id, by_text) for record in records]


def _event_repaired(record: Any, by_id: dict[str, tuple[str, str]], by_text: dict[str, str]) -> Any:
    """The line with the repaired text in place of a reply's copy it holds; else the line itself."""
    payload = record.get("payload") if type(record) is dict and record.get("type") == EVENT_LINE else None
    if type(payload) is not dict:
        return record
    kind = payload.get("type")
    if kind == "item_completed":
        item = payload.get("item")
        if type(item) is dict and item.get("type") == "AgentMessage" and _text(item.get("id")) in by_id:
            read, repaired = by_id[item["id"]]
            if _agent_message_text(item.get("content")) == read:
                repaired_item = {**item, "content": [{"type": "Text", "text": repaired}]}
                return {**record, "payload": {**payload, "item": repaired_item}}
    elif kind == "task_complete" and _text(payload.get("last_agent_message")) in by_text:
        return {**record, "payload": {**payload, "last_agent_message": by_text[payload["last_agent_message"]]}}
    elif kind == "agent_message" and _text(payload.get("message")) in by_text:
        return {**record, "payload": {**payload, "message": by_text[payload["message"]]}}
    return record


def _agent_message_text(content: Any) -> str | None:
    """The text of an `AgentMessage`'s `Text` parts; None when it holds anything else."""
    if not isinstance(content, list):
        return None
    texts = [part.get("text") for part in content if type(part) is dict and part.get("type") == "Text"]
    strings = [text for text in texts if type(text) is str]
    return "".join(strings) if len(strings) == len(content) else None


def _text(value: Any) -> str | None:
    """`value` when it is a string (a key to look up), else None."""
    return value if type(value) is str else None
