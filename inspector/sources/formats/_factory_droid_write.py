"""Writing a Factory Droid session back: edited message records re-rendered, new ones spliced into
the `parentId` chain the way Droid writes real ones, every other line kept byte for byte.

An edited turn's record keeps its keys; its message is re-rendered as the Anthropic format renders
an edited message (the repaired text spread over its text blocks, its calls' arguments as
repaired, calls a repair gave it appended), a tool_use input always an object as Droid stores one.
An assistant record a repair left with no block is dropped and its child hangs from its parent.
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
from inspector.sources.messages.arguments import arguments_as_json, parse_arguments
from inspector.sources.messages.line_edits import LineEdits

Record = dict[str, Any]


def rebuilt_text(document: Document, records: list[Any], turns: tuple[Turn, ...]) -> str:
    """The file's text with the repaired `turns` (each read from its record, `raw`, or new)."""
    edits = LineEdits()
    previous: Turn | None = None
    pending: list[Turn] = []
    for turn in turns:
        if turn.raw is None:
            pending.append(turn)
            continue
        if pending:
            _insert(edits, records, pending, previous, turn)
            pending = []
        if turn.edited:
            _edit(edits, records, turn)
        previous = turn
    if pending:
        _insert(edits, records, pending, previous, None)
    return edits.text(document, records)


def _edit(edits: LineEdits, records: list[Any], turn: Turn) -> None:
    """Re-render an edited turn's message; an assistant message left empty is dropped."""
    record: Record = turn.raw
    message = anthropic_messages.edited_message(replace(turn, raw=record["message"]))
    content = message.get("content")
    if isinstance(content, list):
        message["content"] = [_with_object_input(block) for block in content]
    if content in ([], "") and turn.role == ASSISTANT:
        for child in _children(edits, records, record["id"]):
            edits.set(child, "parentId", edits.current(record).get("parentId"))
        edits.removed.add(id(record))
        return
    edits.set(record, "message", message)


def _insert(
    edits: LineEdits, records: list[Any], pending: list[Turn], previous: Turn | None, following: Turn | None
) -> None:
    """New records for `pending`, after the turn before them (else before the one after)."""
    if previous is not None:
        anchor: Record = previous.raw
        children = _children(edits, records, anchor["id"])
        new = _new_records(pending, anchor, anchor["id"])
        edits.after[id(anchor)].extend(new)
        for child in children:
            edits.set(child, "parentId", new[-1]["id"])
    elif following is not None:
        anchor = following.raw
        new = _new_records(pending, anchor, edits.current(anchor).get("parentId"))
        edits.before[id(anchor)].extend(new)
        edits.set(anchor, "parentId", new[-1]["id"])
    else:
        return
    edits.new.update(id(record) for record in new)


def _children(edits: LineEdits, records: list[Any], parent: str) -> list[Record]:
    """The records (as written so far) whose `parentId` is `parent`."""
    return [
        record
        for record in records
        if type(record) is dict and id(record) not in edits.removed and edits.current(record).get("parentId") == parent
    ]


def _new_records(turns: list[Turn], anchor: Record, parent: Any) -> list[Record]:
    """The message records of new turns, chained from `parent`."""
    out: list[Record] = []
    for turn in turns:
        if turn.role == TOOL:
            message = {"role": "user", "content": [_result_block(result) for result in turn.tool_results]}
        elif turn.role == ASSISTANT:
            blocks = anthropic_messages.blocks_of(turn.text, turn.tool_calls)
            message = {"role": "assistant", "content": [_with_object_input(block) for block in blocks]}
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


def _with_object_input(block: Any) -> Any:
    """A tool_use block whose input is text made an object (parsed, else `{}`): Droid stores
    the arguments it could not parse as an empty object."""
    if isinstance(block, dict) and block.get("type") == "tool_use" and not isinstance(block.get("input"), dict):
        parsed = parse_arguments(block.get("input"))
        return {**block, "input": parsed if isinstance(parsed, dict) else {}}
    return block
