"""What the readers and writers of every storage share: rebuilding a record list from repaired
turns, spreading a new text over a message's text parts, and call arguments as stored.

Writers never rebuild a record they were not asked to change: `rebuild_records` walks the
original list, keeps every untouched record (odd ones included) as the very same object, swaps in
re-rendered edited turns and inserts the turns a repair added.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from inspector.model import Turn

_SCAN_JSON = json.JSONDecoder().scan_once  # one JSON value at an index: (value, end), StopIteration if none


def rebuild_records(
    records: list[Any],
    turns: Iterable[Turn],
    render_edited: Callable[[Turn], Any],
    render_new: Callable[[Turn], list[Any]],
) -> list[Any]:
    """The session's record list after repair.

    Turns with `raw` set point at their original record; an `edited` one is replaced by
    `render_edited(turn)`. Turns without `raw` are new: `render_new(turn)` gives their records,
    inserted before the next original turn (or at the end).
    """
    replaced: dict[int, Any] = {}
    inserted: defaultdict[int, list[Any]] = defaultdict(list)
    pending: list[Any] = []
    for turn in turns:
        if turn.raw is None:
            pending.extend(render_new(turn))
            continue
        if pending:
            inserted[id(turn.raw)].extend(pending)
            pending = []
        if turn.edited:
            replaced[id(turn.raw)] = render_edited(turn)
    out: list[Any] = []
    for record in records:
        out.extend(inserted.get(id(record), ()))
        out.append(replaced.get(id(record), record))
    out.extend(pending)
    return out


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


def arguments_as_json(arguments: Any) -> str:
    """Arguments as the JSON string OpenAI-style formats store."""
    return arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)


def parse_arguments(raw: Any) -> dict[str, Any] | None:
    """Parsed arguments from a stored value: an object as it is, a JSON string parsed strictly.

    Anything that is not a JSON object gives None (detectors of malformed arguments look at the
    raw value themselves).
    """
    if isinstance(raw, dict):
        return raw
    if isinstance(raw, str):
        if raw.startswith("{"):  # the common case: one C call, no whole-text checks (tens of thousands per file)
            try:
                value, end = _SCAN_JSON(raw, 0)
            except (json.JSONDecodeError, StopIteration, RecursionError):
                return None
            if end == len(raw):
                return value
        try:
            value = json.loads(raw) if raw.strip() else {}
        except (json.JSONDecodeError, RecursionError):
            return None
        return value if isinstance(value, dict) else None
    if raw is None:
        return {}
    return None


def message_list(document: Any, key: str = "messages") -> list[Any] | None:
    """The messages of a JSON document that is a list of them, or an object holding them under
    `key`; None for JSON Lines or any other shape."""
    value = document.value
    if document.is_jsonl:
        return None
    if isinstance(value, dict):
        value = value.get(key)
    return value if isinstance(value, list) else None


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
