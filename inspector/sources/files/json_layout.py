"""Writing a one-line JSON file back in the layout it had.

`Document.render` writes a file that has no indentation as `json.dumps` does: `", "` and `": "`
between items and a final newline. The histories apps keep from Pydantic AI
(`all_messages_json()`) and from the AI SDK (`JSON.stringify(messages)`) are one line with no
spaces and no final newline; `render_like` writes such a file in that layout, so a file a repair
did not change comes back byte for byte. It looks at the file's first key and its last byte only.
"""

from __future__ import annotations

import json
from typing import Any

from inspector.sources.files.document import Document
from inspector.support.lazy_pattern import lazy_pattern

_FIRST_KEY = lazy_pattern(r'\s*[\[{]\s*(?:\{\s*)?"(?:[^"\\]|\\.)*"(\s*):(\s*)')
_HEAD = 4096


def render_like(document: Document, value: Any) -> str:
    """The text of `document` with `value`: as `Document.render` writes it, except that a file on
    one line keeps the spacing after its first key's colon and its final newline (or none)."""
    if document.is_jsonl or document.indent is not None:
        return document.render(value)
    layout = _layout(document)
    if layout is None:
        return document.render(value)
    before_colon, after_colon, newline = layout
    separators = ("," if not after_colon else ", ", before_colon + ":" + after_colon)
    text = json.dumps(value, ensure_ascii=False, separators=separators)
    return document.with_long_numbers(text) + ("\n" if newline else "")


def _layout(document: Document) -> tuple[str, str, bool] | None:
    """The spacing around the first key's colon and whether the file ends with a newline, or None
    when the file cannot be read again or its head does not show them."""
    try:
        with open(document.path, "rb") as handle:
            head = handle.read(_HEAD).decode("utf-8-sig", "ignore")
            handle.seek(0, 2)
            if handle.tell() == 0:
                return None
            handle.seek(-1, 2)
            newline = handle.read(1) == b"\n"
    except OSError:
        return None
    found = _FIRST_KEY.match(head)
    if found is None or "\n" in found.group(1) + found.group(2):
        return None
    return found.group(1), found.group(2), newline
