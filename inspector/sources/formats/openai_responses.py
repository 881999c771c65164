"""OpenAI Responses items kept as a JSON list: what the Agents SDK's `result.to_input_list()` gives
and its sessions hold, and what a Responses request takes as `input`.

The items are read by `responses_items`: messages (typed, or the easy `{role, content}`),
`function_call` with its `arguments` string kept verbatim, `function_call_output`, custom tool
calls and their outputs; `reasoning` and any other item stay in place.

OpenAI Chat Completions reads a bare list of messages too, and would read the easy messages of
such a list while skipping every call and output. A list is this format when it shows what only
Responses items have: a `type` of `message`, `function_call`, `function_call_output`, ..., or
`input_text` / `output_text` content parts. Chat Completions is the general format, asked only
when no specific one claims a file, so this one reads the list.
"""

from __future__ import annotations

from typing import Any

from inspector.model import Session
from inspector.sources.files.document import Document
from inspector.sources.formats.contract import FileFormat
from inspector.sources.messages.responses_items import CALLS, NOT_TURNS, OUTPUTS, TEXT_PARTS, ItemReader, rebuild

NAME = "openai-responses"

MARKERS = frozenset({"message"}) | CALLS | OUTPUTS | NOT_TURNS


def claims(document: Document) -> bool:
    """A JSON list holding at least one item only the Responses API writes."""
    value = document.value
    return not document.is_jsonl and isinstance(value, list) and any(_is_marker(item) for item in value)


def read(document: Document) -> list[Session]:
    """The one session of the list."""
    reader = ItemReader()
    for position, item in enumerate(document.value):
        reader.read(position, item, item)
    return [Session(NAME, document.path, tuple(reader.turns), (), document, 0, None, tuple(reader.problems()))]


def write(document: Document, sessions: list[Session]) -> str:
    """The list's text with the repaired items; the others are kept as they were."""
    return document.render(rebuild(document.value, sessions[0].turns, _item_of, _items))


def _is_marker(item: Any) -> bool:
    if type(item) is not dict:
        return False
    if type(item.get("type")) is str and item["type"] in MARKERS:
        return True
    content = item.get("content")
    return (
        "role" in item
        and isinstance(content, list)
        and any(isinstance(part, dict) and part.get("type") in TEXT_PARTS for part in content)
    )


def _item_of(item: Any) -> Any:
    return item


def _items(items: list[Any], near: Any, replacing: bool) -> list[Any]:
    return items


FORMAT = FileFormat(NAME, claims, read, write)
