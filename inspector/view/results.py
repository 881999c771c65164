"""A tool result's content as text: to read in full (a string as it is, a list of text parts
joined, anything else as indented JSON), or on one line of a list."""

from __future__ import annotations

import json
from typing import Any

from inspector.sources.messages.text_parts import content_text, is_text_part
from inspector.support.safe_text import preview_value


def result_text(content: Any) -> str:
    """`content` (what a tool returned) as text; "" when it holds nothing."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list) and content and all(is_text_part(part) for part in content):
        return content_text(content)
    return json.dumps(content, ensure_ascii=False, indent=2, default=str)


def result_line(content: Any, width: int) -> str:
    """`content` (what a tool returned) on one line of at most `width` characters, white space
    folded: its text (a list of text parts joined), anything else as compact JSON; "" when it
    holds nothing."""
    if content is None:
        return ""
    if isinstance(content, list) and content and all(is_text_part(part) for part in content):
        content = content_text(content)
    return preview_value(content, width)
