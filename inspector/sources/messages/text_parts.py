"""A message's text kept in parts (a content list's text parts, Gemini's `parts`, ...): the text
they hold together (`content_text`), and a repaired text spread back over them (`spread_text`,
`respread_parts`), changing only the parts a repair changed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def spread_text(old_texts: list[str], new_text: str) -> list[str]:
    """New texts for a message's text parts, so that their concatenation is `new_text`.

    Trailing parts that `new_text` still ends with are kept as they were; the rest of the new
    text goes into the first part and any other part in between becomes empty. A repair that cuts
    the start of a reply so changes only the part it cut.
    """
    if not old_texts:
        return [new_text]
    result = list(old_texts)
    remaining = new_text
    keep_from = len(old_texts)
    while keep_from > 1:
        tail = old_texts[keep_from - 1]
        if tail and remaining.endswith(tail):
            remaining = remaining[: len(remaining) - len(tail)]
            keep_from -= 1
        else:
            break
    result[0] = remaining
    for i in range(1, keep_from):
        result[i] = ""
    return result


def respread_parts(
    parts: list[Any],
    is_text: Callable[[Any], bool],
    new_text: str,
    other: Callable[[Any], Any] = lambda part: part,
) -> list[Any]:
    """A message's parts with its text parts holding `new_text` (as `spread_text` spreads it, parts
    left empty dropped) and every other part replaced by `other(part)`, in order."""
    texts = iter(spread_text([part["text"] for part in parts if is_text(part)], new_text))
    out = []
    for part in parts:
        if is_text(part):
            text = next(texts)
            if text:
                out.append({**part, "text": text})
        else:
            out.append(other(part))
    return out


def content_text(content: Any) -> str:
    """A message's text: the string itself, or the `text` of a list's text parts joined."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part["text"] for part in content if is_text_part(part))
    return ""


def is_text_part(part: Any) -> bool:
    """Whether `part` is a content part holding a `text` string."""
    return isinstance(part, dict) and isinstance(part.get("text"), str)
