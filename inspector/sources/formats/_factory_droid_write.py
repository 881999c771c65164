"""Writing a Factory Droid session back: edited message records re-rendered, new ones spliced into
the `parentId` chain the way Droid writes real ones, every other line kept byte for byte.

An edited turn's record keeps its keys; its message is re-rendered as the Anthropic format renders
an edited message (the repaired text spread over its text blocks, its calls' arguments as
repaired, calls a repair gave it appended).
New turns (a recovered call's result, a recovered call) become `message` records, `{"type",
"id" (uuid4), "parentId", "timestamp" (of the record beside them), "message": {"role",
"content"}}`, results as Droid writes them (`tool_result {tool_use_id, is_error, content}` in a
user message). They go just after the turn before them, the record that hung from it now hanging
from the last new one; before any turn, they go before the first and take its parent. So the
file still reads as one chain, in the file's order.
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from typing import Any

from inspector.model import ASSISTANT, TOOL, ToolResult, Turn
from inspector.sources.files.document import Document
from inspector.sources.messages import anthropic_messages
from inspector.sources.messages.arguments import arguments_as_json
from inspector.sources.messages.line_edits import LineEdits

Record = dict[str, Any]


def rebuilt_text(document: Document, records: list[Any], turns: tuple[Turn, ...]) -> str:
    """The file's text with the repaired `turns` (each read from its record, `raw`, or new)."""
    edits = LineEdits()
    children = _children(records) if any(turn.raw is None for turn in turns) else {}
    previous: Turn | None = None
    pending: list[Turn] = []
    for turn in turns:
        if turn.raw is None:
            pending.append(turn)
            continue
        if pending:
            _insert(edits, children, pending, previous, turn)
            pending = []
        if turn.edited:
            _edit(edits, turn)
        previous = turn
    if pending:
        _insert(edits, children, pending, previous, None)
    return edits.text(document, records)


def _edit(edits: LineEdits, turn: Turn) -> None:
    """Re-render an edited turn's message."""
    record: Record = turn.raw
    edits.set(record, "message", anthropic_messages.edited_message(replace(turn, raw=record["message"])))


def _insert(
    edits: LineEdits,
    children: dict[str, list[Record]],
    pending: list[Turn],
    previous: Turn | None,
    following: Turn | None,
) -> None:
    """New records for `pending`, after the turn before them (else before the one after).

    `children` are the file's records by their `parentId`; each turn is the one before a gap
    once, so the records hanging from it are still those."""
    if previous is not None:
        anchor: Record = previous.raw
        new = _new_records(pending, anchor, anchor["id"])
        edits.after[id(anchor)].extend(new)
        for child in children.get(anchor["id"], ()):
            edits.set(child, "parentId", new[-1]["id"])
    elif following is not None:
        anchor = following.raw
        new = _new_records(pending, anchor, edits.current(anchor).get("parentId"))
        edits.before[id(anchor)].extend(new)
        edits.set(anchor, "parentId", new[-1]["id"])
    else:
        return
    edits.new.update(id(record) for record in new)


def _children(records: list[Any]) -> dict[str, list[Record]]:
    """The file's records by the `parentId` they hang from."""
    out: dict[str, list[Record]] = {}
    for record in records:
        if type(record) is dict and type(parent := record.get("parentId")) is str:
            out.setdefault(parent, []).append(record)
    return out


def _new_records(turns: list[Turn], anchor: Record, parent: Any) -> list[Record]:
    """The message records of new turns, chained from `parent`."""
    out: list[Record] = []
    for turn in turns:
        if turn.role == TOOL:
            message = {"role": "user", "content": [_result_block(result) for result in turn.tool_results]}
        elif turn.role == ASSISTANT:
            message = {"role": "assistant", "content": anthropic_messages.blocks_of(turn.text, turn.tool_calls)}
        else:
            message = {"role": "user", "content": [{"type": "text", "text": turn.text}]}
        record: Record = {"type": "message", "id": str(uuid.uuid4()), "parentId": parent}
        if "timestamp" in anchor:
            record["timestamp"] = anchor["timestamp"]
        record["message"] = message
        out.append(record)
        parent = record["id"]
    return out


def _result_block(result: ToolResult) -> Record:
    """A tool_result block as Droid writes one: the id, whether it failed, the text."""
    content = result.content if isinstance(result.content, str) else arguments_as_json(result.content)
    return {"type": "tool_result", "tool_use_id": result.call_id, "is_error": result.is_error, "content": content}
