"""Anthropic Messages content: a message (`{role, content}`, content a string or a list of
`text`, `thinking`, `tool_use {id, name, input}` and `tool_result {tool_use_id, content,
is_error}` blocks) read as a turn, and the blocks a repair writes.

Used by `anthropic` (a Messages request's `messages`), `claude_code` (the `message` of each
event, and writing repaired events back), `cline` (the Cline CLI's sessions, written back),
`factory_droid` (the `message` of each record, written back) and `cline-task` (the VS Code
extensions' tasks).
"""

from __future__ import annotations

from typing import Any

from inspector.model import ASSISTANT, SYSTEM, TOOL, USER, ToolCall, ToolResult, Turn
from inspector.sources.messages.arguments import arguments_as_json, parse_arguments
from inspector.sources.messages.text_parts import respread_parts

ROLES = {"user": USER, "assistant": ASSISTANT, "system": SYSTEM}


def message_turn(position: int, message: dict[str, Any], names: dict[str, str], model: str | None = None) -> Turn:
    """The turn of one Anthropic message at `position`, written by `model` where the format records
    it; `names` maps the ids of the calls seen so far to their tools' names (results carry only the
    id), and learns this message's calls."""
    role, text, calls, results = content_parts(message["role"], message.get("content"), names)
    message_id = message.get("id")
    turn_id = message_id if type(message_id) is str else None
    return Turn(position, role, text, turn_id, calls, results, message, model=model)


def content_parts(
    role_name: str, content: Any, names: dict[str, str]
) -> tuple[str, str, tuple[ToolCall, ...], tuple[ToolResult, ...]]:
    """The role, text, calls and results of a message of `role_name` holding `content`, read in
    one pass over its blocks; `names` learns its calls and names its results (as `message_turn`)."""
    role = ROLES[role_name]
    if type(content) is str:
        return role, content, (), ()
    if not isinstance(content, list):
        return role, "", (), ()
    texts: list[str] = []
    calls: list[ToolCall] = []
    result_blocks: list[dict[str, Any]] = []
    for block in content:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text":
            text = block.get("text")
            if isinstance(text, str):
                texts.append(text)
        elif kind == "tool_use":
            name = block.get("name")
            if isinstance(name, str):
                arguments = block.get("input")
                calls.append(ToolCall(block.get("id"), name, arguments, parse_arguments(arguments)))
        elif kind == "tool_result":
            result_blocks.append(block)
    for call in calls:
        if isinstance(call.id, str):
            names[call.id] = call.name
    results = tuple(
        ToolResult(
            b.get("tool_use_id"),
            _name_of(b.get("tool_use_id"), names),
            _result_content(b.get("content")),
            b.get("is_error") is True,
        )
        for b in result_blocks
    )
    if role == USER and results and len(results) == len(content):
        role = TOOL
    return role, "".join(texts), tuple(calls), results


def _name_of(call_id: Any, names: dict[str, str]) -> str | None:
    """The name of the tool the call `call_id` called, when an earlier turn made it (an id that is
    not text names none: its result is an odd record)."""
    return names.get(call_id) if isinstance(call_id, str) else None


def _result_content(content: Any) -> Any:
    """A tool result's content: its text when it is a list of blocks, else the value itself."""
    return blocks_text(content) if isinstance(content, list) else content


def blocks_text(blocks: list[Any]) -> str:
    """The text of a list of blocks: its text blocks' texts joined."""
    return "".join(block["text"] for block in blocks if is_text_block(block))


def is_text_block(block: Any) -> bool:
    """Whether `block` is a text block with its text."""
    return isinstance(block, dict) and block.get("type") == "text" and isinstance(block.get("text"), str)


def blocks_of(text: str, calls: tuple[ToolCall, ...]) -> list[dict[str, Any]]:
    """Content blocks for a text (none when empty) followed by a tool_use block per call."""
    blocks: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
    blocks.extend(
        {"type": "tool_use", "id": call.id, "name": call.name, "input": call.arguments or {}} for call in calls
    )
    return blocks


def result_block(result: ToolResult) -> dict[str, Any]:
    """The tool_result block recording `result`."""
    content = result.content if isinstance(result.content, str) else arguments_as_json(result.content)
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": result.call_id, "content": content}
    if result.is_error:
        block["is_error"] = True
    return block


def edited_message(turn: Turn) -> dict[str, Any]:
    """The message of an edited turn: its record with the repaired text spread over its text
    blocks, its calls' names and arguments as repaired and any calls a repair gave it appended;
    every other key and block kept."""
    message = dict(turn.raw)
    content = message.get("content")
    calls = iter(turn.tool_calls)
    if not isinstance(content, list):
        if turn.tool_calls:  # a repair gave this plain-text message calls: it needs blocks
            message["content"] = blocks_of(turn.text, turn.tool_calls)
        elif content is not None or turn.text:
            message["content"] = turn.text
        return message

    def with_arguments(block: Any) -> Any:
        if isinstance(block, dict) and block.get("type") == "tool_use" and isinstance(block.get("name"), str):
            call = next(calls, None)
            if call is not None and (call.arguments_raw is not block.get("input") or call.name != block["name"]):
                return {**block, "name": call.name, "input": call.arguments_raw}
        return block

    if turn.text == blocks_text(content):  # only calls changed, or only the names of results it answers
        blocks = [with_arguments(block) for block in content]
    else:
        blocks = respread_parts(content, is_text_block, turn.text, with_arguments)
    message["content"] = blocks + blocks_of("", tuple(calls))  # and any calls a repair gave it
    return message
