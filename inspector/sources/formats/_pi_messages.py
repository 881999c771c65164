"""Pi's messages (`packages/ai/src/types.ts`, `coding-agent/src/core/messages.ts`) read as turns,
and the messages a repair writes.

A `user` message's `content` is a string or a list of `text` and `image` blocks; an `assistant`
message's a list of `text`, `thinking` and `toolCall {id, name, arguments}` blocks, with the
`api`, `provider`, `model`, `usage`, `stopReason` and `timestamp` (Unix ms) of its reply; a
`toolResult` message answers one call (`toolCallId`, `toolName`, `content` blocks, `isError`).
The roles the coding agent adds are read as the user turns Pi turns them into for the model: a
`bashExecution` (a command the person ran) as its command and output, a `custom` message (an
extension's) as its content.
"""

from __future__ import annotations

from typing import Any

from inspector.model import ASSISTANT, TOOL, USER, ToolCall, ToolResult, Turn
from inspector.sources.messages.arguments import parse_arguments
from inspector.sources.messages.text_parts import respread_parts
from inspector.sources.messages.turn_models import model_name

Message = dict[str, Any]
# The roles of the messages Pi keeps in `message` entries (its summaries are entries of their own).
ROLES = frozenset({"user", "assistant", "toolResult", "bashExecution", "custom"})


def message_turn(position: int, entry_id: str | None, message: Message, raw: Any) -> Turn:
    """The turn of one message (its role one of `ROLES`) at `position`, with the entry's id."""
    role = message["role"]
    content = message.get("content")
    if role == "assistant":
        blocks = content if isinstance(content, list) else []
        calls = tuple(_call(block) for block in blocks if _is_call(block))
        model = model_name(message.get("model"))
        return Turn(position, ASSISTANT, blocks_text(blocks), entry_id, calls, (), raw, model=model)
    if role == "toolResult":
        call_id, name = message.get("toolCallId"), message.get("toolName")
        result = ToolResult(
            call_id if type(call_id) is str else None,
            name if type(name) is str else None,
            content_text(content),
            message.get("isError") is True,
        )
        return Turn(position, TOOL, "", entry_id, (), (result,), raw)
    if role == "bashExecution":
        return Turn(position, USER, _bash_text(message), entry_id, (), (), raw)
    return Turn(position, USER, content_text(content), entry_id, (), (), raw)


def content_text(content: Any) -> str:
    """The text of a content: the string itself, or its `text` blocks' texts joined."""
    if type(content) is str:
        return content
    return blocks_text(content) if isinstance(content, list) else ""


def blocks_text(blocks: list[Any]) -> str:
    """The texts of the `text` blocks of a list joined."""
    return "".join(block["text"] for block in blocks if _is_text(block))


def edited_message(turn: Turn, message: Message) -> Message:
    """`message` as a repair left its turn: an assistant's text spread over its text blocks, its
    calls' names and arguments as repaired, new calls appended (calls a repair removed dropped);
    a result's text and error flag; a user message's text. Every other key and block kept."""
    out = dict(message)
    if turn.role == TOOL and turn.tool_results:
        result = turn.tool_results[0]
        out["content"] = result_content(result, message.get("content"))
        out["isError"] = result.is_error
    elif turn.role == ASSISTANT:
        content = message.get("content")
        blocks = content if isinstance(content, list) else []
        calls = {call.id: call for call in turn.tool_calls}
        kept = respread_parts(blocks, _is_text, turn.text, lambda block: _repaired_block(block, calls))
        present = {block.get("id") for block in kept if _is_call(block)}
        if not any(_is_text(block) for block in blocks) and turn.text:
            kept.insert(0, {"type": "text", "text": turn.text})
        new = [call_block(call) for call in turn.tool_calls if call.id not in present]
        out["content"] = [block for block in kept if block is not None] + new
        if turn.tool_calls and out.get("stopReason") == "stop":
            out["stopReason"] = "toolUse"
    elif isinstance(message.get("content"), list):
        out["content"] = respread_parts(message["content"], _is_text, turn.text)
    else:
        out["content"] = turn.text
    return out


def call_block(call: ToolCall) -> dict[str, Any]:
    """The `toolCall` block of a call, its arguments an object as Pi stores them."""
    arguments = call.arguments if call.arguments is not None else parse_arguments(call.arguments_raw)
    return {"type": "toolCall", "id": call.id, "name": call.name, "arguments": arguments or {}}


def result_content(result: ToolResult, stored: Any = None) -> list[Any]:
    """A result's content blocks: its text as one `text` block, a stored image block kept."""
    content = result.content if type(result.content) is str else content_text(result.content)
    images = [b for b in stored if isinstance(b, dict) and b.get("type") == "image"] if isinstance(stored, list) else []
    return [{"type": "text", "text": content}, *images]


def _repaired_block(block: Any, calls: dict[Any, ToolCall]) -> Any:
    """A non-text block as a repair left it: a call's name and arguments as repaired, None for a
    call the turn no longer holds; thinking and other blocks as they were."""
    if not _is_call(block):
        return block
    call = calls.get(block.get("id"))
    if call is None:
        return None
    if call.name == block["name"] and call.arguments_raw is block.get("arguments"):
        return block
    return {**block, "name": call.name, "arguments": call_block(call)["arguments"]}


def _call(block: dict[str, Any]) -> ToolCall:
    call_id, arguments = block.get("id"), block.get("arguments")
    parsed = arguments if type(arguments) is dict else parse_arguments(arguments)
    return ToolCall(call_id if type(call_id) is str else None, block["name"], arguments, parsed)


def _is_call(block: Any) -> bool:
    return isinstance(block, dict) and block.get("type") == "toolCall" and type(block.get("name")) is str


def _is_text(block: Any) -> bool:
    return isinstance(block, dict) and block.get("type") == "text" and type(block.get("text")) is str


def _bash_text(message: Message) -> str:
    """A command the person ran, as Pi words it for the model: the command, then its output."""
    command, output = message.get("command"), message.get("output")
    command_text = command if type(command) is str else ""
    return f"Ran `{command_text}`\n{output}" if type(output) is str and output else f"Ran `{command_text}`"
