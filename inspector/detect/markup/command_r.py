"""Cohere Command R: `Action:` then a ```` ```json ```` fence holding a list of
`{"tool_name": NAME, "parameters": {...}}` objects (or one object), as Ollama's Command R parser
reads it. The `directly-answer` pseudo-tool (the model answering without a tool) is no call, and
a fence whose objects hold other keys is data. The fence's end is looked up in an index of the
fences' places (linear time).
"""

from __future__ import annotations

from typing import Any

from inspector.catalogue import Catalogue
from inspector.detect.markup.blocks import MAX_CALLS, Block, Call, Reader, find_literal
from inspector.support.leading_space import SPACE
from inspector.support.lenient_json import parse_array_at, parse_object_at

MARKER = "Action:"
_OPENING = "```json"
_KEYS = {"tool_name", "parameters"}
_NO_CALL = "directly-answer"


def _action(text: str, start: int, after: int, catalogue: Catalogue) -> Block | None:
    """The calls of the ```` ```json ```` fence that follows `Action:`; None when no such fence
    follows, or when it holds anything but call objects."""
    opening = SPACE.match(text, after).end()
    if not text.startswith(_OPENING, opening):
        return None
    line_end = text.find("\n", opening + len(_OPENING), opening + len(_OPENING) + 80)
    if line_end < 0 or text[opening + len(_OPENING) : line_end].strip():
        return None
    closing = find_literal(text, "```", line_end)
    if closing < 0:
        return None
    body = text[line_end + 1 : closing].strip()
    parsed = parse_array_at(body) if body.startswith("[") else parse_object_at(body)
    if parsed is None or body[parsed.end :].strip():
        return None
    items = parsed.value if isinstance(parsed.value, list) else [parsed.value]
    if not items or len(items) > MAX_CALLS or not all(_is_call(item) for item in items):
        return None
    calls = tuple(
        Call(item["tool_name"], item.get("parameters", {})) for item in items if item["tool_name"] != _NO_CALL
    )
    return Block(start, closing + 3, "command-r", calls) if calls else None


def _is_call(item: Any) -> bool:
    """Whether an item is a Command R call object: a tool's name, and parameters that are an object."""
    return (
        isinstance(item, dict)
        and item.keys() <= _KEYS
        and isinstance(item.get("tool_name"), str)
        and bool(item["tool_name"])
        and isinstance(item.get("parameters", {}), dict)
    )


READERS: dict[str, Reader] = {MARKER: _action}
