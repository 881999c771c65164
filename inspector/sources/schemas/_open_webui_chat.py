"""Open WebUI's chat JSON, as its reader and its writer see it: the branch of messages a chat
shows (`shown_messages`), and the `<details type="tool_calls" ...>` tags an assistant's content
carries its calls in, split from its text (`split_content`) and written back with a repaired text
and calls (`repaired_content`). A model wrote the content: the tags are found in one pass
(`details_tags`) and their attributes read from a word's start only, so the time stays linear in
the content's length whatever it holds (unclosed tags, long runs of word characters)."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from typing import Any, NamedTuple

from inspector.model import ToolCall
from inspector.sources.messages.text_parts import spread_text
from inspector.sources.sql.rows import json_or_none
from inspector.support.lazy_pattern import lazy_pattern

OPENING = '<details type="tool_calls"'
CLOSING = "</details>"
ATTRIBUTE = lazy_pattern(r'(?<!\w)(\w+)="([^"]*)"')  # from a word's start: each word tried once


class DetailsTag(NamedTuple):
    """One details tag of a content: where it starts and ends (after the newline following it,
    if any), and the text of its attributes."""

    start: int
    end: int
    attributes: str


def details_tags(content: str) -> list[DetailsTag]:
    """Every `<details type="tool_calls" ...>...</details>` tag of `content`, in order: its
    attributes run to the first `>`, its body to the first `</details>` after them. One pass of
    `str.find`s, each from where the last left off."""
    tags: list[DetailsTag] = []
    cursor = 0
    while (start := content.find(OPENING, cursor)) != -1:
        attributes_end = content.find(">", start + len(OPENING))
        closing = -1 if attributes_end == -1 else content.find(CLOSING, attributes_end + 1)
        if closing == -1:  # no later tag can close either
            break
        end = closing + len(CLOSING) + content.startswith("\n", closing + len(CLOSING))
        tags.append(DetailsTag(start, end, content[start + len(OPENING) : attributes_end]))
        cursor = end
    return tags


def shown_messages(chat: Any) -> list[dict[str, Any]]:
    """The messages of the branch the chat shows, oldest first."""
    if not isinstance(chat, dict):
        return []
    history = chat.get("history")
    if not isinstance(history, dict):
        history = {}
    by_id = history.get("messages")
    if not isinstance(by_id, dict):
        by_id = {}
    current, branch, seen = history.get("currentId"), [], set()
    while current in by_id and current not in seen and isinstance(by_id[current], dict):
        seen.add(current)
        branch.append(by_id[current])
        current = by_id[current].get("parentId")
    if branch:
        return branch[::-1]
    linear = chat.get("messages")
    return [m for m in linear if isinstance(m, dict)] if isinstance(linear, list) else []


def split_content(content: str) -> tuple[list[str], list[dict[str, str]]]:
    """The text pieces around the `<details type="tool_calls">` tags, and each tag's attributes."""
    texts, tags, cursor = [], [], 0
    for tag in details_tags(content):
        texts.append(content[cursor : tag.start])
        tags.append({key: html.unescape(value) for key, value in ATTRIBUTE.findall(tag.attributes)})
        cursor = tag.end
    texts.append(content[cursor:])
    return texts, tags


def repaired_content(content: str, new_text: str, calls: Sequence[ToolCall]) -> str:
    """The assistant content with its text (the pieces around the details tags) replaced by
    `new_text`, spread over the pieces as `spread_text` does, and each tag's `name` and `arguments`
    taken from the turn's call in its place (a renamed call, repaired arguments); the tags' other
    attributes are kept as they were."""
    tags = [
        _with_call(content[tag.start : tag.end], calls[index] if index < len(calls) else None)
        for index, tag in enumerate(details_tags(content))
    ]
    texts = spread_text(split_content(content)[0], new_text)
    return "".join(text + tag for text, tag in zip(texts, tags + [""]))


def _with_call(tag: str, call: ToolCall | None) -> str:
    """A details tag with its `name` and (when a repair replaced them) `arguments` set from `call`,
    encoded as the tag had them (JSON, or JSON in a JSON string), HTML-escaped."""
    if call is None:
        return tag

    def attribute(match: re.Match[str]) -> str:
        key, value = match.group(1), match.group(2)
        if key == "name":
            return f'name="{html.escape(call.name)}"'
        if key == "arguments" and isinstance(call.arguments_raw, dict):
            encoded = json.dumps(call.arguments_raw, ensure_ascii=False)
            twice = isinstance(json_or_none(html.unescape(value)), str)
            return f'arguments="{html.escape(json.dumps(encoded, ensure_ascii=False) if twice else encoded)}"'
        return match.group(0)

    opening = tag[: tag.index(">")]  # the attributes end at the first '>'
    return ATTRIBUTE.sub(attribute, opening) + tag[len(opening) :]
