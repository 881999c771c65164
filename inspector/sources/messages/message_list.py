"""The message list of a session file whose JSON is that list, or an object holding it (the
formats that keep a conversation as one list of messages): found (`message_list`, for a format's
`claims`), and read from a file its format claimed (`claimed_messages`)."""

from __future__ import annotations

from typing import Any

from inspector.errors import InspectorError
from inspector.sources.files.document import Document
from inspector.support.safe_text import shown_name


def message_list(document: Document, key: str = "messages") -> list[Any] | None:
    """The messages of a JSON document that is a list of them, or an object holding them under
    `key`; None for JSON Lines or any other shape."""
    value = document.value
    if document.is_jsonl:
        return None
    if isinstance(value, dict):
        value = value.get(key)
    return value if isinstance(value, list) else None


def claimed_messages(document: Document, key: str = "messages") -> list[Any]:
    """The messages of a document its format claimed for holding them (`message_list`); one
    `InspectorError` line for a document that holds none."""
    messages = message_list(document, key)
    if messages is None:
        raise InspectorError(f"{shown_name(document.path)}: holds no list of {key}")
    return messages
