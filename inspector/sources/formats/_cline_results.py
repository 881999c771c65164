"""The Cline CLI's tool results (`cline`): a `tool_result` block whose content is a list of `{query, result, success}`,
one per file read or command run, read as the results' texts joined, failed when one did not
succeed; and the block a repair adds, written the same way.
"""

from __future__ import annotations

from typing import Any

from inspector.model import ToolResult, Turn
from inspector.sources.messages.arguments import arguments_as_json


def with_results(turn: Turn, message: dict[str, Any]) -> Turn:
    """`turn` (read as an Anthropic message) with its results' contents read as Cline writes them."""
    if not turn.tool_results:
        return turn
    blocks = [b for b in message["content"] if isinstance(b, dict) and b.get("type") == "tool_result"]
    results = tuple(_result(result, block) for result, block in zip(turn.tool_results, blocks, strict=True))
    # (built directly: `dataclasses.replace` costs several times more, on a result of every exchange)
    return Turn(
        turn.position, turn.role, turn.text, turn.id, turn.tool_calls, results, turn.raw, turn.edited, turn.model
    )


def result_block(result: ToolResult) -> dict[str, Any]:
    """The `tool_result` block recording `result`, its content one `{query, result, success}`."""
    text = result.content if isinstance(result.content, str) else arguments_as_json(result.content)
    item = {"query": result.name or "", "result": text, "success": not result.is_error}
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": result.call_id, "name": result.name}
    block["content"] = [item]
    if result.is_error:
        block["is_error"] = True
    return block


def _result(result: ToolResult, block: dict[str, Any]) -> ToolResult:
    content = block.get("content")
    items = content if isinstance(content, list) else []
    outcomes = [item for item in items if isinstance(item, dict) and "result" in item and "type" not in item]
    if not outcomes or len(outcomes) != len(items):
        return result  # a string or text blocks: read as Anthropic's
    texts = [
        item["result"] if isinstance(item["result"], str) else arguments_as_json(item["result"]) for item in outcomes
    ]
    failed = result.is_error or any(item.get("success") is False for item in outcomes)
    name = result.name if result.name is not None else block.get("name")
    return ToolResult(result.call_id, name if isinstance(name, str) else None, "\n".join(texts), failed)
